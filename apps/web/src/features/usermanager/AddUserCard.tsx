import { UserAddOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { snackbar } from '../../api/notify';
import { useSaveUserMutation } from './api';
import { PasswordField } from './PasswordField';
import { LOGIN_MIN, loginMixesScripts } from './userRules';

interface NewUser {
  login: string;
  password: string;
}

/** User name, password with Generate password, Create new user (seed 001 section 2). */
export function AddUserCard() {
  const { t } = useTranslation();
  const [form] = Form.useForm<NewUser>();
  const create = useSaveUserMutation('create');

  const onFinish = async (v: NewUser) => {
    await create.mutateAsync({ login: v.login.trim(), password: v.password });
    snackbar('success', t('usermanager.user_created'));
    form.resetFields();
  };

  return (
    <Card title={t('usermanager.add_user')}>
      <Form<NewUser>
        form={form}
        layout="vertical"
        style={{ maxWidth: 520 }}
        onFinish={(v) => {
          onFinish(v).catch(() => undefined);
        }}
      >
        <Form.Item
          name="login"
          label={t('usermanager.user_name')}
          rules={[
            { required: true, whitespace: true, message: t('common.required') },
            { min: LOGIN_MIN, message: t('usermanager.min_length', { min: LOGIN_MIN }) },
            {
              validator: (_rule, value: unknown) =>
                typeof value === 'string' && loginMixesScripts(value)
                  ? Promise.reject(new Error(t('usermanager.mixed_scripts')))
                  : Promise.resolve(),
            },
          ]}
        >
          <Input name="new-login" autoComplete="off" aria-label={t('usermanager.user_name')} />
        </Form.Item>
        <PasswordField form={form} name="password" label={t('usermanager.password')} />
        <Button type="primary" htmlType="submit" icon={<UserAddOutlined />} loading={create.isPending}>
          {t('usermanager.create_user')}
        </Button>
      </Form>
    </Card>
  );
}
