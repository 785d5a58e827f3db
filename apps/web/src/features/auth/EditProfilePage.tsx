import { Button, Card, Flex, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LOGIN_ROUTE } from '../../app/routeTitles';
import { signOut } from './signOut';
import { useChangePasswordMutation } from './api';
import { passwordChangeProblem } from './rules';
import { useAuthUser } from './session';

type Field = 'oldPassword' | 'newPassword';

/** Change of the local password; the guard already limits it to local users other than demo. */
export function EditProfilePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useAuthUser();
  const mutation = useChangePasswordMutation();
  const [values, setValues] = useState<Record<Field, string>>({ oldPassword: '', newPassword: '' });
  const [invalid, setInvalid] = useState<Record<Field, boolean>>({ oldPassword: false, newPassword: false });
  const [problem, setProblem] = useState<'must_differ' | null>(null);

  const submit = () => {
    const p = passwordChangeProblem(values.oldPassword, values.newPassword);
    setInvalid({ oldPassword: values.oldPassword === '', newPassword: values.newPassword === '' });
    setProblem(p === 'must_differ' ? 'must_differ' : null);
    if (p !== null || !user) return;
    mutation.mutate(
      { login: user.user, ...values },
      {
        // The server ends every session of the user on a password change: sign in again.
        onSuccess: () => void signOut().then(() => navigate(LOGIN_ROUTE, { replace: true })),
      },
    );
  };

  const field = (name: Field, label: string, autoComplete: string) => (
    <Form.Item
      label={label}
      required
      validateStatus={invalid[name] || (name === 'newPassword' && problem) ? 'error' : ''}
      help={
        invalid[name]
          ? t('common.required')
          : name === 'newPassword' && problem
            ? t('profile.must_differ')
            : undefined
      }
    >
      <Input.Password
        name={name}
        autoComplete={autoComplete}
        value={values[name]}
        onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
        onClick={() => setInvalid((s) => ({ ...s, [name]: false }))}
        onPressEnter={submit}
      />
    </Form.Item>
  );

  return (
    <Flex justify="center">
      <Card style={{ width: '100%', maxWidth: 480 }}>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {t('profile.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{user?.user}</Typography.Paragraph>
        <Form layout="vertical" onFinish={submit}>
          {field('oldPassword', t('profile.old_password'), 'current-password')}
          {field('newPassword', t('profile.new_password'), 'new-password')}
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            {t('profile.submit')}
          </Button>
        </Form>
      </Card>
    </Flex>
  );
}
