import type { MeterTestResult } from '@meterportal/protocol';
import { Card, Col, Descriptions, Row, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { enumLabel } from './enumLabels';
import { PHASES, at, derivedOf, fixed, num, phaseSequence, phiOf, type Derived } from './testRules';
import { formatLocal } from '../../telemetry/zone';

/** Live and test values show 3 decimals; error and energy 2 (seed 001 section 9). */
const D = 3;

interface TestProps {
  test: MeterTestResult;
}

interface PhaseRow {
  key: string;
  label: string;
  values: string[];
}

/** A small table: one row per quantity, one column per phase (and SUM when given). */
function PhaseTable({ rows, withSum }: { rows: PhaseRow[]; withSum: boolean }) {
  const { t } = useTranslation();
  return (
    <Table<PhaseRow>
      size="small"
      pagination={false}
      rowKey="key"
      dataSource={rows}
      columns={[
        { title: t('meters.quantity'), key: 'label', dataIndex: 'label' },
        ...PHASES.map((p, i) => ({
          title: `L${p}`,
          key: `L${p}`,
          align: 'right' as const,
          render: (_v: unknown, r: PhaseRow) => r.values[i],
        })),
        ...(withSum
          ? [
              {
                title: t('meters.sum'),
                key: 'sum',
                align: 'right' as const,
                render: (_v: unknown, r: PhaseRow) => r.values[3],
              },
            ]
          : []),
      ]}
    />
  );
}

function perPhase(test: MeterTestResult, prefix: string, decimals = D): string[] {
  return PHASES.map((p) => fixed(at(test, prefix, p), decimals));
}

function withSum(test: MeterTestResult, prefix: string, decimals = D): string[] {
  return [...perPhase(test, prefix, decimals), fixed(num(test, `${prefix}SUM`), decimals)];
}

export function MeterErrorCard({ test }: TestProps) {
  const { t } = useTranslation();
  const energy = enumLabel('MENERGYTYPE', test.MENERGYTYPE, t);
  return (
    <Card size="small" title={t('meters.meter_error')} className="meter-error-card">
      <Typography.Title level={2} className="meter-error-value" style={{ marginTop: 0 }}>
        {fixed(test.ERROR, 2)} %
      </Typography.Title>
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'sd', label: t('meters.test_fields.METERSTDEV'), children: fixed(test.METERSTDEV, D) },
          { key: 'n', label: t('meters.test_fields.TESTSAMPLES'), children: test.TESTSAMPLES ?? '-' },
          { key: 'it', label: t('meters.test_fields.INTTIME'), children: fixed(test.INTTIME, D) },
          { key: 'c', label: t('meters.test_fields.METERCONST'), children: test.METERCONST ?? '-' },
          { key: 'e', label: t('meters.test_fields.MENERGYTYPE'), children: energy ?? '-' },
        ]}
      />
    </Card>
  );
}

export function BasicValuesCard({ test }: TestProps) {
  const { t } = useTranslation();
  const derived = PHASES.map((p) => derivedOf(test, p));
  const d = (pick: (x: Derived) => number | undefined) => derived.map((x) => fixed(pick(x), D));
  const sequence = phaseSequence(PHASES.map((p) => at(test, 'MPHA', p)));
  const f = t('meters.test_fields', { returnObjects: true });
  const rows: PhaseRow[] = [
    { key: 'U', label: f.U, values: perPhase(test, 'MCHNLA') },
    { key: 'I', label: f.I, values: perPhase(test, 'MCHNLB') },
    { key: 'PHA', label: f.PHA, values: perPhase(test, 'MPHA') },
    { key: 'PHB', label: f.PHB, values: perPhase(test, 'MPHB') },
    { key: 'PH', label: f.PH, values: PHASES.map((p) => fixed(phiOf(test, p), D)) },
    { key: 'PF', label: f.PF, values: perPhase(test, 'MPOWFACT') },
    { key: 'DFU', label: f.DFU, values: perPhase(test, 'DFA') },
    { key: 'DFI', label: f.DFI, values: perPhase(test, 'DFB') },
    { key: 'UPP', label: f.UPP, values: perPhase(test, 'UPP') },
    { key: 'Z', label: f.Z, values: d((x) => x.impedanceOhm) },
    { key: 'SIN', label: f.SIN, values: d((x) => x.sinPhi) },
    { key: 'IP', label: f.IP, values: d((x) => x.activeCurrentA) },
    { key: 'IQ', label: f.IQ, values: d((x) => x.reactiveCurrentA) },
  ];
  return (
    <Card size="small" title={t('meters.basic_values')}>
      <PhaseTable rows={rows} withSum={false} />
      <Descriptions
        size="small"
        column={2}
        style={{ marginTop: 8 }}
        items={[
          { key: 'f', label: t('meters.frequency'), children: `${fixed(test.MFREQ, D)} Hz` },
          { key: 'seq', label: t('meters.phase_sequence'), children: sequence ?? '-' },
        ]}
      />
    </Card>
  );
}

export function PowerCard({ test }: TestProps) {
  const { t } = useTranslation();
  const f = t('meters.test_fields', { returnObjects: true });
  return (
    <Card size="small" title={t('meters.power')}>
      <PhaseTable
        withSum
        rows={[
          { key: 'P', label: f.P, values: withSum(test, 'MPOWER') },
          { key: 'Q', label: f.Q, values: withSum(test, 'MQPOWER') },
          { key: 'S', label: f.S, values: withSum(test, 'MSPOWER') },
        ]}
      />
    </Card>
  );
}

export function EnergyCard({ test }: TestProps) {
  const { t } = useTranslation();
  const f = t('meters.test_fields', { returnObjects: true });
  return (
    <Card size="small" title={t('meters.energy')}>
      <PhaseTable
        withSum
        rows={[
          { key: 'EP', label: f.EP, values: withSum(test, 'MENERGY', 2) },
          { key: 'EQ', label: f.EQ, values: withSum(test, 'MQENERGY', 2) },
          { key: 'ES', label: f.ES, values: withSum(test, 'MSENERGY', 2) },
        ]}
      />
    </Card>
  );
}

export function MaximumDemandCard({ test }: TestProps) {
  const { t } = useTranslation();
  const f = t('meters.test_fields', { returnObjects: true });
  const reset = num(test, 'MDLASTRESET');
  return (
    <Card size="small" title={t('meters.maximum_demand')}>
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Descriptions
            size="small"
            column={1}
            items={[
              { key: 'p', label: f.MDPERIOD, children: fixed(test.MDPERIOD, 0) },
              { key: 'sp', label: f.MDSUBPERIODS, children: fixed(test.MDSUBPERIODS, 0) },
              {
                key: 'r',
                label: f.MDLASTRESET,
                children: reset === undefined ? '-' : formatLocal(reset * 1000, 'L LTS'),
              },
            ]}
          />
        </Col>
        <Col xs={24} md={16}>
          <Table
            size="small"
            pagination={false}
            rowKey="key"
            dataSource={[
              { key: 'fix', label: f.MDFIX, p: test.MDFIXP, q: test.MDFIXQ, s: test.MDFIXS },
              { key: 'slid', label: f.MDSLID, p: test.MDSLIDP, q: test.MDSLIDQ, s: test.MDSLIDS },
            ]}
            columns={[
              { title: '', key: 'label', dataIndex: 'label' },
              { title: f.MDP, key: 'p', align: 'right', render: (_v, r) => fixed(r.p, D) },
              { title: f.MDQ, key: 'q', align: 'right', render: (_v, r) => fixed(r.q, D) },
              { title: f.MDS, key: 's', align: 'right', render: (_v, r) => fixed(r.s, D) },
            ]}
          />
        </Col>
      </Row>
    </Card>
  );
}
