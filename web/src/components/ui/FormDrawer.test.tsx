import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Form, Input } from 'antd';
import { renderAt } from '../../test/render';
import { ApiError } from '../../lib/api/errors';
import { FormDrawer, useRecordDrawer } from './FormDrawer';

interface V {
  name?: string;
  code?: string;
}

function Drawer({ id, record, save, onClose }: { id: number | null; record?: { title: string }; save: (b: { name: string }) => Promise<void>; onClose: () => void }) {
  const drawer = useRecordDrawer<V, { title: string }, { name: string }>({
    open: true,
    id,
    record: { data: record, isLoading: false },
    defaults: { name: 'new one' },
    fromRecord: (r) => ({ name: r.title }),
    save: { mutate: (b, on) => void save(b).then(on.onSuccess, on.onError), isPending: false },
    toBody: (v) => ({ name: `${v.name}!` }),
    onClose,
  });
  return (
    <FormDrawer title="t" {...drawer} testId="d">
      <Form.Item name="name" label="Name">
        <Input />
      </Form.Item>
      <Form.Item name="code" label="Code">
        <Input />
      </Form.Item>
    </FormDrawer>
  );
}

describe('useRecordDrawer', () => {
  it('fills a new record with the defaults, sends the converted values and closes', async () => {
    const save = vi.fn(async () => undefined);
    const onClose = vi.fn();
    renderAt(<Drawer id={null} save={save} onClose={onClose} />);
    const drawer = await screen.findByTestId('d');
    expect(within(drawer).getByLabelText('Name')).toHaveValue('new one');
    fireEvent.click(screen.getByTestId('drawer-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(save).toHaveBeenCalledWith({ name: 'new one!' });
  });

  it('fills an existing record from it, and puts a refusal on its field without closing', async () => {
    const save = vi.fn(async () => {
      throw new ApiError(422, '代码已存在', { code: ['代码已存在'] });
    });
    const onClose = vi.fn();
    renderAt(<Drawer id={3} record={{ title: 'old' }} save={save} onClose={onClose} />);
    const drawer = await screen.findByTestId('d');
    expect(within(drawer).getByLabelText('Name')).toHaveValue('old');
    fireEvent.click(screen.getByTestId('drawer-submit'));
    expect(await within(drawer).findByText('代码已存在')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});
