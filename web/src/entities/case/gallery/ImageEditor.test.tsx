import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../../../test/render';
import { ImageEditor } from './ImageEditor';
import { STROKE_DEFAULT, type Label } from './labels';
import type { GalleryImage } from './api';

const rect: Label = { id: 2, tool: 'rect', points: [100, 100, 300, 200], strokeStyle: STROKE_DEFAULT, fillStyle: '', lineWidth: 2, description: '病灶', fontSize: 14, angle: 0 };
const item = { id: 5, name: 'gross.jpg', path: '/api/gallery/1/5/image', version: '1', labels: [rect], edited: false, checked: false } as unknown as GalleryImage;

/** An image that "loads" at once with a size (jsdom loads none). */
class LoadedImage {
  naturalWidth = 800;
  naturalHeight = 600;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  set src(_url: string) {
    setTimeout(() => this.onload?.());
  }
}

// The label saves: each PUT waits until the test answers it.
let puts: { labels: Label[]; answer: () => void }[] = [];

beforeEach(() => {
  puts = [];
  vi.stubGlobal('Image', LoadedImage);
  Object.defineProperty(window, 'Image', { configurable: true, writable: true, value: LoadedImage });
  URL.createObjectURL = () => 'blob:image';
  URL.revokeObjectURL = () => {};
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request | string) => {
      const req = typeof input === 'string' ? new Request(new URL(input, 'http://localhost')) : input;
      if (req.method === 'PUT') {
        const body = await req.clone().json();
        return new Promise<Response>((resolve) =>
          puts.push({ labels: body.labels, answer: () => resolve(new Response(JSON.stringify({ data: { labels: body.labels } }), { headers: { 'Content-Type': 'application/json' } })) }),
        );
      }
      return new Response('jpeg', { headers: { 'Content-Type': 'image/jpeg' } });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('ImageEditor', () => {
  it('applies a Delete pressed while the move before it is still being saved, and saves it after', async () => {
    renderAt(<ImageEditor caseId={1} item={item} open onClose={() => {}} onSaved={() => {}} />);
    const canvas = await screen.findByTestId('editor-canvas');
    await waitFor(() => expect(canvas).toHaveAttribute('data-size', '800x600'));
    fireEvent.keyDown(canvas, { key: ']' });
    fireEvent.keyDown(canvas, { key: 'ArrowRight' });
    // The move is saved a moment after the key; its save (and read-back) is still on its way.
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0].labels[0].points).toEqual([108, 100, 308, 200]);
    fireEvent.keyDown(canvas, { key: 'Delete' });
    expect(await screen.findByText(/已删除|deleted/)).toBeInTheDocument();
    expect(puts).toHaveLength(1); // one save at a time
    puts[0].answer();
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1].labels).toEqual([]);
    puts[1].answer();
    // Nothing more is sent, and the read-back of the move does not bring the label back.
    await waitFor(() => expect(screen.getByRole('button', { name: /标注（\d+）/ })).toHaveTextContent('标注（0）'));
    expect(puts).toHaveLength(2);
  });
});
