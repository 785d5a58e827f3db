import { DeleteOutlined } from '@ant-design/icons';
import { MAX_DEVICES_PER_USER, type ManagedUser } from '@meterportal/protocol';
import { Alert, Button, Form, Modal, Popconfirm, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { snackbar } from '../../api/notify';
import { useAuthUser } from '../auth/session';
import { useAssignMutation, useManagedDevicesQuery, useRemoveUserMutation, useSaveUserMutation } from './api';
import { PasswordField } from './PasswordField';
import { VALIDITIES, VALIDITY_LABEL, canAddDevice, lifeTimeFor, type Validity } from './userRules';

interface UserModalProps {
  user: ManagedUser;
  onClose: () => void;
}

interface AssignForm {
  device?: string;
  validity?: Validity;
}

/** Add device: a device of the installation the user does not hold yet, and a validity. */
export function AddDeviceModal({ user, onClose }: UserModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AssignForm>();
  const devices = useManagedDevicesQuery();
  const assign = useAssignMutation();
  const allowed = canAddDevice(user.devices.length);
  const options = (devices.data ?? [])
    .filter((d) => !user.devices.includes(d.MAC))
    .map((d) => ({ value: d.MAC, label: `${d.title} (${d.MAC})` }));

  const onFinish = async (v: AssignForm) => {
    if (!v.device || !v.validity) return;
    await assign.mutateAsync({
      login: user.login,
      device: v.device,
      lifeTime: lifeTimeFor(v.validity, Date.now()),
    });
    snackbar('success', t('usermanager.device_assigned'));
    onClose();
  };

  return (
    <Modal
      open
      title={`${t('usermanager.add_device')}: ${user.login}`}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !allowed }}
      confirmLoading={assign.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {!allowed && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('usermanager.device_limit', { max: MAX_DEVICES_PER_USER })}
        />
      )}
      <Form<AssignForm>
        form={form}
        layout="vertical"
        onFinish={(v) => {
          onFinish(v).catch(() => undefined);
        }}
      >
        <Form.Item
          name="device"
          label={t('usermanager.device')}
          rules={[{ required: true, message: t('common.required') }]}
        >
          <Select<string>
            aria-label={t('usermanager.device')}
            disabled={!allowed}
            loading={devices.isLoading}
            showSearch={{ optionFilterProp: 'label' }}
            options={options}
          />
        </Form.Item>
        <Form.Item
          name="validity"
          label={t('usermanager.validity')}
          rules={[{ required: true, message: t('common.required') }]}
        >
          <Select<Validity>
            aria-label={t('usermanager.validity')}
            disabled={!allowed}
            options={VALIDITIES.map((v) => ({
              value: v,
              label: t(`usermanager.validities.${VALIDITY_LABEL[v] as 'owner'}`),
            }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface PasswordForm {
  password: string;
}

/** Edit user: a new password, or Delete user. */
export function EditUserModal({ user, onClose }: UserModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PasswordForm>();
  const save = useSaveUserMutation('password');
  const remove = useRemoveUserMutation();
  // One's own account is not deleted from here: it would end the session of the person acting.
  const self = useAuthUser()?.user === user.login;

  const onFinish = async (v: PasswordForm) => {
    await save.mutateAsync({ login: user.login, password: v.password });
    snackbar('success', t('usermanager.password_changed'));
    onClose();
  };
  const onDelete = async () => {
    await remove.mutateAsync(user.login);
    snackbar('success', t('usermanager.user_deleted'));
    onClose();
  };

  return (
    <Modal
      open
      title={`${t('usermanager.edit_user')}: ${user.login}`}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        !self && (
          <Popconfirm
            key="delete"
            title={t('usermanager.are_you_sure')}
            okText={t('common.yes')}
            cancelText={t('common.no')}
            onConfirm={() => {
              onDelete().catch(() => undefined);
            }}
          >
            <Button danger icon={<DeleteOutlined />} loading={remove.isPending} style={{ float: 'left' }}>
              {t('usermanager.delete_user')}
            </Button>
          </Popconfirm>
        ),
        <Button key="cancel" onClick={onClose}>
          {t('common.cancel')}
        </Button>,
        <Button key="save" type="primary" loading={save.isPending} onClick={() => form.submit()}>
          {t('usermanager.change_password')}
        </Button>,
      ]}
    >
      <Form<PasswordForm>
        form={form}
        layout="vertical"
        onFinish={(v) => {
          onFinish(v).catch(() => undefined);
        }}
      >
        <PasswordField form={form} name="password" label={t('usermanager.new_password')} />
      </Form>
    </Modal>
  );
}
