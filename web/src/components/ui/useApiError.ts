import { App } from 'antd';
import type { FormInstance } from 'antd';
import { useCallback } from 'react';
import { ApiError } from '../../lib/api/errors';

/** Shows an API error as-is and maps its field errors onto a form (spec 1 §8). */
export function useApiError() {
  const { message } = App.useApp();
  return useCallback(
    (err: unknown, form?: FormInstance) => {
      const text = err instanceof Error ? err.message : String(err);
      if (err instanceof ApiError && form) {
        // "site_info.hisip" → ['site_info', 'hisip'] so nested fields show their message too.
        const fields = Object.entries(err.fieldErrors).map(([name, errors]) => ({ name: name.split('.'), errors }));
        if (fields.length) form.setFields(fields);
      }
      void message.error(text);
    },
    [message],
  );
}
