import { ArrowLeftOutlined } from '@ant-design/icons';
import { Card, Col, Empty, Flex, List, Result, Row, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ErrorCode } from '@meterportal/protocol';
import { isApiError } from '../../../api/http';
import { useSelectedDevice } from '../../devices/selection';
import { useMeterImagesQuery, useMeterTestsQuery, useMetersQuery } from './api';
import { MeterImages } from './MeterImages';
import { METERS_LIST_ROUTE } from './routes';
import { BasicValuesCard, EnergyCard, MaximumDemandCard, MeterErrorCard, PowerCard } from './TestCards';
import { fixed } from './testRules';
import { formatLocal } from '../../telemetry/zone';

/** Stored tests of one meter at left; the cards of the selected test at right; its images below. */
export function MeterTestsPage() {
  const { t } = useTranslation();
  const { token: themeToken } = theme.useToken();
  const { meter_id: meterParam } = useParams();
  const meterId = Number(meterParam);
  const device = useSelectedDevice();
  const meters = useMetersQuery(device?.token);
  const tests = useMeterTestsQuery(device?.token, meterId);
  const images = useMeterImagesQuery(device?.token, meterId);
  const [selectedId, setSelectedId] = useState<number | null>(null);

  if (!device) return <Empty description={t('meters.no_device')} />;
  const meter = meters.data?.find((m) => m.ID_meter === meterId);
  // The server answers "Meter not found" for the tests and the images alike: said once, below.
  const notFound = (meters.isSuccess && !meter) || isApiError(tests.error, ErrorCode.NotFound);
  const list = tests.data ?? [];
  const selected = list.find((r) => r.ID_test === selectedId) ?? list[0];

  return (
    <Flex vertical gap={12}>
      <Card
        size="small"
        title={
          <Flex align="center" gap={12}>
            <Link to={METERS_LIST_ROUTE}>
              <ArrowLeftOutlined /> {t('meters.back_to_list')}
            </Link>
            <span>{t('meters.tests_title', { serial: meter?.SNUM ?? meterParam ?? '' })}</span>
          </Flex>
        }
      >
        {meter && (
          <Typography.Text type="secondary">
            {[meter.PRODUCER, meter.TYPE, meter.CUSTOMER, meter.LOCATION].filter(Boolean).join(' · ')}
          </Typography.Text>
        )}
      </Card>
      {notFound ? (
        <Card>
          <Result status="warning" title={t('meters.meter_not_found')} />
        </Card>
      ) : tests.isError ? (
        <Card>
          <Result status="warning" title={t('common.api_communication_error')} />
        </Card>
      ) : tests.isSuccess && list.length === 0 ? (
        <Card>
          <Empty description={t('meters.no_tests')} />
        </Card>
      ) : (
        <Row gutter={[12, 12]}>
          <Col xs={24} lg={6}>
            <Card size="small" title={t('meters.stored_tests')} loading={tests.isLoading}>
              <List
                size="small"
                dataSource={list}
                renderItem={(r) => {
                  const active = r.ID_test === selected?.ID_test;
                  return (
                    <List.Item
                      role="button"
                      tabIndex={0}
                      aria-pressed={active}
                      className="meter-test-item"
                      style={{
                        cursor: 'pointer',
                        paddingInline: 8,
                        borderRadius: themeToken.borderRadiusSM,
                        background: active ? themeToken.controlItemBgActive : undefined,
                      }}
                      onClick={() => setSelectedId(r.ID_test)}
                      onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && setSelectedId(r.ID_test)}
                    >
                      <span>{formatLocal(r.MTIME * 1000, 'L LTS')}</span>
                      <Typography.Text strong>{fixed(r.ERROR, 2)} %</Typography.Text>
                    </List.Item>
                  );
                }}
              />
            </Card>
          </Col>
          <Col xs={24} lg={18}>
            {selected && (
              <Row gutter={[12, 12]}>
                <Col xs={24} xl={8}>
                  <MeterErrorCard test={selected} />
                </Col>
                <Col xs={24} xl={16}>
                  <BasicValuesCard test={selected} />
                </Col>
                <Col xs={24} xl={12}>
                  <PowerCard test={selected} />
                </Col>
                <Col xs={24} xl={12}>
                  <EnergyCard test={selected} />
                </Col>
                <Col xs={24}>
                  <MaximumDemandCard test={selected} />
                </Col>
              </Row>
            )}
          </Col>
        </Row>
      )}
      {!notFound && (
        <MeterImages deviceToken={device.token} images={images.data ?? []} loading={images.isLoading} />
      )}
    </Flex>
  );
}
