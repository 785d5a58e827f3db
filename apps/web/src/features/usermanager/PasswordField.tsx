import { KeyOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space, type FormInstance } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { snackbar } from '../../api/notify';
import { PASSWORD_MIN, generatePassword } from './userRules';

interface PasswordFieldProps {
  // Any form with a password field: add user and change password.
  form: FormInstance;
  name: string;
  label: string;
}

/** A password input with Generate password: the new one is shown and copied to the clipboard. */
export function PasswordField({ form, name, label }: PasswordFieldProps) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);

  const generate = () => {
    const password = generatePassword();
    form.setFieldValue(name, password);
    void form.validateFields([name]).catch(() => undefined);
    setVisible(true);
    // The clipboard exists only in secure contexts; the password stays visible either way.
    void navigator.clipboard
      ?.writeText(password)
      .then(() => snackbar('success', t('usermanager.password_copied')))
      .catch(() => undefined);
  };

  return (
    <Form.Item label={label} required>
      <Space.Compact style={{ width: '100%' }}>
        <Form.Item
          name={name}
          noStyle
          rules={[
            { required: true, message: t('common.required') },
            { min: PASSWORD_MIN, message: t('usermanager.min_length', { min: PASSWORD_MIN }) },
          ]}
        >
          <Input.Password
            name={name}
            autoComplete="new-password"
            aria-label={label}
            visibilityToggle={{ visible, onVisibleChange: setVisible }}
          />
        </Form.Item>
        <Button icon={<KeyOutlined />} onClick={generate}>
          {t('usermanager.generate_password')}
        </Button>
      </Space.Compact>
    </Form.Item>
  );
}
