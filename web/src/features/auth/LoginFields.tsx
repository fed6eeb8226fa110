import { useState, type InputHTMLAttributes, type ReactNode } from 'react';
import type { IconDefinition } from '@ant-design/icons-svg/lib/types';
import EyeInvisibleOutlined from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import LoadingOutlined from '@ant-design/icons-svg/es/asn/LoadingOutlined';
import { PlainIcon } from '../../components/ui/PlainIcon';
import { useSignInTexts } from '../../lib/signInTexts';
import './login.css';

// The sign-in form's parts in antd's look (login.css), as plain accessible HTML.

/** A labelled field, its error linked to the input (aria-describedby) and read out. */
export function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  return (
    <div className="tp-login-field">
      <label htmlFor={id}>{label}</label>
      {children}
      {error && (
        <div id={`${id}-error`} role="alert" className="tp-login-error">
          {error}
        </div>
      )}
    </div>
  );
}

type InputProps = InputHTMLAttributes<HTMLInputElement> & { icon: IconDefinition; invalid?: boolean };

/** antd's large Input with a prefix icon. */
export function TextInput({ icon, invalid, ...props }: InputProps) {
  return (
    <span className={`tp-input${invalid ? ' tp-invalid' : ''}`}>
      <span className="tp-input-prefix">
        <PlainIcon icon={icon} />
      </span>
      <input type="text" {...props} />
    </span>
  );
}

/** A password input with a button that shows or hides what was typed. */
export function PasswordInput({ icon, invalid, ...props }: InputProps) {
  const t = useSignInTexts();
  const [shown, setShown] = useState(false);
  return (
    <span className={`tp-input${invalid ? ' tp-invalid' : ''}`}>
      <span className="tp-input-prefix">
        <PlainIcon icon={icon} />
      </span>
      <input {...props} type={shown ? 'text' : 'password'} />
      <button type="button" className="tp-input-toggle" aria-label={t('login.showPassword')} aria-pressed={shown} onClick={() => setShown((s) => !s)}>
        <PlainIcon icon={shown ? EyeOutlined : EyeInvisibleOutlined} />
      </button>
    </span>
  );
}

export function Checkbox({ checked, onChange, children }: { checked: boolean; onChange: (checked: boolean) => void; children: ReactNode }) {
  return (
    <label className="tp-checkbox">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>{children}</span>
    </label>
  );
}

// Like antd's Button, a label of two Chinese characters is spaced out ("登 录").
const spaced = (label: string) => (/^[\u4e00-\u9fa5]{2}$/.test(label) ? label.split('').join(' ') : label);

/** antd's large block primary button; busy while the sign-in is on its way. */
export function SubmitButton({ busy, label }: { busy: boolean; label: string }) {
  return (
    <button type="submit" className="tp-submit" aria-busy={busy} data-testid="login-submit" onClick={busy ? (e) => e.preventDefault() : undefined}>
      {busy && <PlainIcon icon={LoadingOutlined} spin />}
      <span>{spaced(label)}</span>
    </button>
  );
}
