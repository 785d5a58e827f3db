import { ArrowLeftOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Empty, Flex, Form, Tabs, type UploadFile } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSelectedDevice } from '../../devices/selection';
import { useAddMeterMutation, useUploadImagesMutation } from './api';
import { successDialog } from './dialogs';
import { ImageStep } from './ImageStep';
import { METERS_LIST_ROUTE } from './routes';
import { CustomerStep, MeterStep, TransformerStep } from './WizardSteps';
import {
  STEP_FIELDS,
  initialWizardValues,
  meterFromWizard,
  transformerPatch,
  type WizardValues,
} from './wizardRules';

const IMAGE_STEP = 3;

/**
 * The add-meter wizard: three validated steps, the third saves the meter; then its images. Done,
 * every step resets and the wizard is back on the first tab.
 */
export function MeterAddPage() {
  const { t } = useTranslation();
  const device = useSelectedDevice();
  const [form] = Form.useForm<WizardValues>();
  const [step, setStep] = useState(0);
  const [savedId, setSavedId] = useState<number | null>(null);
  const [files, setFiles] = useState<UploadFile[]>([]);
  const add = useAddMeterMutation(device?.token);
  const upload = useUploadImagesMutation(device?.token);

  if (!device) return <Empty description={t('meters.no_device')} />;

  const reset = () => {
    form.resetFields();
    setFiles([]);
    setSavedId(null);
    setStep(0);
  };

  /** Validates the current step's fields; resolves false (errors shown) when one breaks a rule. */
  const validStep = async (index: number) => {
    try {
      await form.validateFields([...(STEP_FIELDS[index] ?? [])]);
      return true;
    } catch {
      return false;
    }
  };

  const next = async () => {
    if (!(await validStep(step))) return;
    if (step < 2) {
      setStep(step + 1);
      return;
    }
    // Step 3 validated: save the meter, then its images may be added.
    const values: WizardValues = form.getFieldsValue(true) as WizardValues;
    try {
      const id = await add.mutateAsync(meterFromWizard(values));
      setSavedId(id);
      setStep(IMAGE_STEP);
      successDialog(t('meters.saved'));
    } catch {
      // The hook opened the error dialog ('Device is offline' for 529).
    }
  };

  const finish = async () => {
    const picked = files.flatMap((f) => (f.originFileObj ? [f.originFileObj as File] : []));
    if (savedId !== null && picked.length > 0) {
      try {
        await upload.mutateAsync({ meterId: savedId, files: picked });
      } catch {
        return;
      }
      successDialog(t('meters.images_uploaded'));
    }
    reset();
  };

  const label = (index: number, title: string) => (index < IMAGE_STEP ? `${index + 1}/3 ${title}` : title);
  const steps = [
    { title: t('meters.step_meter'), body: <MeterStep /> },
    { title: t('meters.step_transformers'), body: <TransformerStep /> },
    { title: t('meters.step_customer'), body: <CustomerStep /> },
    { title: t('meters.step_images'), body: <ImageStep files={files} onChange={setFiles} /> },
  ];

  return (
    <Card
      title={
        <Flex align="center" gap={12}>
          <Link to={METERS_LIST_ROUTE}>
            <ArrowLeftOutlined /> {t('meters.back')}
          </Link>
          <span>{t('meters.add_title')}</span>
        </Flex>
      }
    >
      <Form<WizardValues>
        form={form}
        layout="vertical"
        initialValues={initialWizardValues()}
        onValuesChange={(changed: WizardValues, all: WizardValues) => {
          const patch = transformerPatch(changed, all);
          if (Object.keys(patch).length > 0) form.setFieldsValue(patch);
        }}
      >
        <Tabs
          activeKey={String(step)}
          onChange={(key) => setStep(Number(key))}
          items={steps.map((s, i) => ({
            key: String(i),
            label: label(i, s.title),
            // Earlier steps stay reachable until the meter is saved; later ones only by Next.
            disabled: savedId === null ? i > step || i === IMAGE_STEP : i !== IMAGE_STEP,
            forceRender: true,
            children: s.body,
          }))}
        />
      </Form>
      {step === IMAGE_STEP && savedId !== null && (
        <Alert type="success" showIcon title={t('meters.saved')} style={{ marginBlock: 12 }} />
      )}
      <Flex gap={8} justify="flex-end">
        {step > 0 && step < IMAGE_STEP && (
          <Button onClick={() => setStep(step - 1)}>{t('meters.previous')}</Button>
        )}
        {step < IMAGE_STEP ? (
          <Button type="primary" loading={add.isPending} onClick={() => void next()}>
            {step === 2 ? t('meters.save_meter') : t('meters.next')}
          </Button>
        ) : (
          <Button type="primary" loading={upload.isPending} onClick={() => void finish()}>
            {t('meters.finish')}
          </Button>
        )}
      </Flex>
    </Card>
  );
}
