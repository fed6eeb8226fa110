import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { passwordStrongEnough } from '../../lib/crypto';

export function PasswordHint() {
  const { t } = useTranslation();
  return <Typography.Text type="secondary">{t('password.policy')}</Typography.Text>;
}

export const passwordRules = (t: TFunction): Rule[] => [
  { required: true, message: t('password.required') },
  { validator: (_, v: string | undefined) => (!v || passwordStrongEnough(v) ? Promise.resolve() : Promise.reject(new Error(t('password.weak')))) },
];

/** "Two inconsistent passwords" check against another field. */
export const confirmRule = (t: TFunction, other: string): Rule => ({ getFieldValue }) => ({
  validator: (_, v: string | undefined) => (!v || v === getFieldValue(other) ? Promise.resolve() : Promise.reject(new Error(t('password.mismatch')))),
});
