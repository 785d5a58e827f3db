import type { JsonMapping, RegisteredDevice } from '@meterportal/protocol';
import { Alert, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { snackbar } from '../../../api/notify';
import { useSaveMappingMutation } from './api';
import { EMPTY_MAPPING, JsonMappingEditor, mappingProblemKey } from './JsonMappingEditor';

interface MappingDialogProps {
  device: RegisteredDevice;
  onClose: () => void;
}

/** Edits a registered JSON meter's mapping; it takes hold with the device's next messages. */
export function MappingDialog({ device, onClose }: MappingDialogProps) {
  const { t } = useTranslation();
  const save = useSaveMappingMutation();
  const [mapping, setMapping] = useState<JsonMapping>(device.mapping ?? EMPTY_MAPPING);
  const problem = mappingProblemKey(mapping);
  return (
    <Modal
      open
      title={t('jsonMeter.edit_title', { title: device.title })}
      onCancel={onClose}
      maskClosable={false}
      okText={t('jsonMeter.save')}
      cancelText={t('jsonMeter.cancel')}
      okButtonProps={{ disabled: problem !== null, loading: save.isPending }}
      onOk={() =>
        save.mutate(
          { mac: device.mac, mapping },
          {
            onSuccess: () => {
              snackbar('success', t('jsonMeter.saved'));
              onClose();
            },
          },
        )
      }
      width={760}
      destroyOnHidden
    >
      <JsonMappingEditor value={mapping} onChange={setMapping} />
      {problem && (
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 12 }}
          message={t('jsonMeter.invalid', { problem: t(`jsonMeter.${problem}` as never) })}
        />
      )}
    </Modal>
  );
}
