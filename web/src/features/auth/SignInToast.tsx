import { useEffect, useMemo } from 'react';
import { ConfigProvider, message } from 'antd';
import { useFontSize, useReducedMotion } from '../../lib/prefs';
import { makeTheme } from '../../lib/theme';

type Props = { text: string; n: number };

/**
 * The sign-in page's error toast: antd's message in the app's theme, loaded with the first
 * error (the page itself loads no antd). Each new `n` shows `text` once more.
 */
export default function SignInToast(props: Props) {
  const fontSize = useFontSize();
  const reducedMotion = useReducedMotion();
  const theme = useMemo(() => makeTheme(fontSize, reducedMotion), [fontSize, reducedMotion]);
  return (
    <ConfigProvider theme={theme}>
      <Toast {...props} />
    </ConfigProvider>
  );
}

function Toast({ text, n }: Props) {
  const [api, holder] = message.useMessage();
  useEffect(() => {
    void api.error(text);
  }, [api, text, n]);
  return holder;
}
