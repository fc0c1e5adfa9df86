// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { deferred, json, type SeenRequest } from '../../../../machines/test-support/fake-fetch';
import { appToasts } from '../../../components/toast-queue';
import { renderWithServices, type RenderedApp } from '../../../test-support/render';
import { isoDaysAgo } from '../../../components/reports/sheet-request';
import SheetsPanelDefault, { SheetsPanel } from './sheets-panel';
import { csvDownloads, FLOW_TIMEOUT_MS, keys, readCsv } from '../../../test-support/sheets';

const range = { startAt: isoDaysAgo(29), finishAt: isoDaysAgo(0) };
const orders = [
  {
    id: 1,
    tenantName: 'farmacia-central',
    created_at: '2026-11-01T13:05:00Z',
    customer_name: 'Maria Souza',
    website_id: 1,
    status: 'delivered',
    items: 3,
    total: 129.9,
  },
  {
    id: 2,
    tenantName: 'farmacia-central',
    created_at: '2026-11-01T14:00:00Z',
    customer_name: 'João Lima',
    website_id: null,
    status: 'cancelled',
    items: 1,
    total: 10,
  },
];
const encoder = new TextEncoder();

/** A CSV body the test feeds chunk by chunk. */
function controlledBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const state = { cancelled: false };
  const body = new ReadableStream<Uint8Array>(
    { start: (c) => void (controller = c), cancel: () => void (state.cancelled = true) },
    { highWaterMark: 0 },
  );
  return {
    body,
    state,
    push: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}
const csvAnswer = (body: ReadableStream<Uint8Array>) =>
  new Response(body, {
    status: 200,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="orders-server.csv"',
    },
  });

/** A File System Access picker whose file records what it is given. */
function fakePicker() {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const file = { text: '', closed: false, aborted: false, suggested: '' };
  const showSaveFilePicker = vi.fn(async (options?: { suggestedName?: string }) => {
    file.suggested = options?.suggestedName ?? '';
    return {
      name: 'pedidos.csv',
      createWritable: async () => ({
        write: async (chunk: Uint8Array) => void (file.text += decoder.decode(chunk, { stream: true })),
        close: async () => void (file.closed = true),
        abort: async () => void (file.aborted = true),
      }),
    };
  });
  Object.assign(window, { showSaveFilePicker });
  return { file, showSaveFilePicker };
}

let view: RenderedApp | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  Reflect.deleteProperty(window, 'showSaveFilePicker');
  view?.unmount();
  view = undefined;
  appToasts.clear();
});

type Answer = Response | Promise<Response>;
interface Fakes {
  preview?: (r: SeenRequest) => Answer;
  csv?: (r: SeenRequest) => Answer;
}
function render({
  preview = () => json(200, { data: orders, total: 1234, limit: 20 }),
  csv = () => json(404, {}),
}: Fakes = {}) {
  view = renderWithServices(<SheetsPanel />, {
    path: '/dashboard/analytics',
    signedIn: {},
    respond: (r) => {
      if (r.path === '/api/tenant/false') return json(200, [{ id: 5, name: 'farmacia-central' }]);
      if (!r.path.startsWith('/api/tenant/sheets/')) return json(404, { message: 'no fake' });
      return r.headers.get('accept') === 'text/csv' ? csv(r) : preview(r);
    },
  });
  return view;
}
const previews = (sheet: string) =>
  (view?.requests ?? []).filter(
    (r) => r.path === `/api/tenant/sheets/${sheet}` && r.headers.get('accept') !== 'text/csv',
  );
const toasts = () => appToasts.visibleToasts.map((t) => t.content.title);
const progress = () => screen.getByRole('progressbar', { name: /Download de Pedidos/ });

describe('SheetsPanel', { timeout: FLOW_TIMEOUT_MS }, () => {
  it('previews the first orders of the last 30 days with the period total (default export too)', async () => {
    expect(SheetsPanelDefault).toBe(SheetsPanel);
    const answer = deferred<Response>();
    render({ preview: () => answer.promise });
    expect(await screen.findByRole('progressbar', { name: 'Carregando registros…' })).toBeInTheDocument();
    await waitFor(() => expect(previews('orders')).toHaveLength(1));
    expect(Object.fromEntries(previews('orders')[0]?.query ?? [])).toEqual({ ...range, limit: '20' });
    answer.resolve(json(200, { data: orders, total: 1234, limit: 20 }));
    const table = await screen.findByRole('grid', { name: 'Prévia de Pedidos' });
    const maria = within(table).getByRole('row', { name: /Maria Souza/ });
    expect(
      within(maria)
        .getAllByRole('gridcell')
        .map((c) => c.textContent),
    ).toEqual(['1', '01/11/2026 10:05', 'farmacia-central', '1', 'Entregue', '3', 'R$\u00a0129,90']);
    expect(within(table).getByRole('row', { name: /João Lima/ })).toHaveTextContent('Cancelado');
    expect(screen.getByText('Prévia: 2 de 1.234 linhas do período.')).toBeInTheDocument();
  });

  it('says when the period has no rows, and why a preview failed (with a retry)', async () => {
    let answer: () => Response = () => json(200, { data: [], total: 0, limit: 20 });
    render({ preview: () => answer() });
    expect(await screen.findByText('Nenhuma linha no período')).toBeInTheDocument();
    answer = () => json(403, { message: 'Forbidden', required_permission: ['dashboard-analytics'] });
    await keys.click(screen.getByRole('button', { name: 'Atualizar prévia' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Não foi possível carregar a prévia.');
    expect(alert).toHaveTextContent('Você não tem permissão para esta ação.');
    answer = () => json(200, { data: orders, total: 2, limit: 20 });
    await keys.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('row', { name: /Maria Souza/ })).toBeInTheDocument();
  });

  it('attendances filter by website and estimate, and keep them across tabs', async () => {
    render({ preview: () => json(200, { data: [], total: 0, limit: 20 }) });
    await keys.click(await screen.findByRole('tab', { name: 'Atendimentos' }));
    await waitFor(() => expect(previews('attendances')).toHaveLength(1));
    await keys.type(screen.getByRole('textbox', { name: 'Site (código)' }), '3');
    await keys.tab();
    await keys.click(screen.getByRole('button', { name: /Orçamento/ }));
    await keys.click(await screen.findByRole('option', { name: 'Com orçamento' }));
    await waitFor(() =>
      expect(Object.fromEntries(previews('attendances').at(-1)?.query ?? [])).toEqual({
        ...range,
        websiteId: '3',
        estimation: 'true',
        limit: '20',
      }),
    );
    await keys.click(screen.getByRole('tab', { name: 'Pedidos' }));
    await keys.click(await screen.findByRole('tab', { name: 'Atendimentos' }));
    expect(await screen.findByRole('textbox', { name: 'Site (código)' })).toHaveValue('3');
  });

  it('reasons filter by tenant (from the tenant list) and reason', async () => {
    render({ preview: () => json(200, { data: [], total: 0, limit: 20 }) });
    await keys.click(await screen.findByRole('tab', { name: 'Motivos' }));
    const tenant = await screen.findByRole('combobox', { name: 'Empresa' });
    expect(tenant).toHaveValue('Todas as empresas');
    await keys.click(tenant);
    await keys.keyboard('{ArrowDown}');
    await keys.click(await screen.findByRole('option', { name: 'farmacia-central' }));
    await keys.type(screen.getByRole('textbox', { name: 'Motivo (código)' }), '4');
    await keys.tab();
    await waitFor(() =>
      expect(Object.fromEntries(previews('reasons').at(-1)?.query ?? [])).toEqual({
        ...range,
        tenancyId: '5',
        reasonId: '4',
        limit: '20',
      }),
    );
  });

  it('streams the download to the chosen file with progress in rows and bytes, then says it is done', async () => {
    const { file, showSaveFilePicker } = fakePicker();
    const csv = controlledBody();
    const { requests } = render({
      preview: () => json(200, { data: orders, total: 2, limit: 20 }),
      csv: () => csvAnswer(csv.body),
    });
    await screen.findByRole('row', { name: /Maria Souza/ });
    expect(screen.queryByText(/prefira o Chrome/)).toBeNull();
    await keys.click(screen.getByRole('button', { name: 'Baixar CSV' }));
    expect(showSaveFilePicker).toHaveBeenCalledTimes(1);
    expect(file.suggested).toBe(`orders-${range.startAt}-${range.finishAt}.csv`);
    await waitFor(() => expect(requests.some((r) => r.headers.get('accept') === 'text/csv')).toBe(true));
    expect(screen.getByRole('button', { name: 'Baixar CSV' })).toBeDisabled();
    csv.push('\uFEFFid;cliente\r\n1;Maria\r\n');
    await waitFor(() => expect(progress()).toHaveAttribute('aria-valuenow', '1'));
    expect(progress()).toHaveAttribute('aria-valuemax', '2');
    expect(progress()).toHaveAttribute('aria-valuetext', '1 de 2 linhas · 24 bytes');
    csv.push('2;"João\r\nLima"\r\n');
    csv.end();
    await waitFor(() => expect(toasts()).toEqual(['Planilha baixada: 2 linhas.']));
    expect(file).toMatchObject({
      text: '\uFEFFid;cliente\r\n1;Maria\r\n2;"João\r\nLima"\r\n',
      closed: true,
      aborted: false,
    });
    expect(progress()).toHaveAttribute('aria-valuenow', '2');
    expect(screen.getByText('Arquivo: pedidos.csv')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Baixar CSV' })).toBeEnabled();
  });

  it('cancel stops the download, discards the file and offers to start again', async () => {
    const { file } = fakePicker();
    const csv = controlledBody();
    render({ csv: () => csvAnswer(csv.body) });
    await screen.findByRole('row', { name: /Maria Souza/ });
    await keys.click(screen.getByRole('button', { name: 'Baixar CSV' }));
    csv.push('\uFEFFid\r\n1\r\n');
    await waitFor(() => expect(progress()).toHaveAttribute('aria-valuenow', '1'));
    await keys.click(screen.getByRole('button', { name: 'Cancelar download' }));
    await waitFor(() => expect(toasts()).toEqual(['Download cancelado.']));
    expect(csv.state.cancelled).toBe(true);
    expect(file).toMatchObject({ closed: false, aborted: true });
    expect(screen.getByRole('button', { name: 'Baixar de novo' })).toBeInTheDocument();
  });

  it('a dismissed save dialog downloads nothing', async () => {
    Object.assign(window, {
      showSaveFilePicker: vi.fn(() => Promise.reject(Object.assign(new Error('dismissed'), { name: 'AbortError' }))),
    });
    const { requests } = render();
    await screen.findByRole('row', { name: /Maria Souza/ });
    await keys.click(screen.getByRole('button', { name: 'Baixar CSV' }));
    expect(requests.some((r) => r.headers.get('accept') === 'text/csv')).toBe(false);
    expect(screen.queryByRole('progressbar', { name: /Download/ })).toBeNull();
  });

  it('without the File System Access API it gathers a Blob, saves it and says large periods suit Chrome', async () => {
    const downloads = csvDownloads();
    const csv = controlledBody();
    render({ csv: () => csvAnswer(csv.body) });
    expect(screen.getByText(/Para períodos grandes, prefira o Chrome ou o Edge/)).toBeInTheDocument();
    await screen.findByRole('row', { name: /Maria Souza/ });
    await keys.click(screen.getByRole('button', { name: 'Baixar CSV' }));
    csv.push('\uFEFFid;total\r\n');
    csv.push('1;129,90\r\n');
    csv.end();
    await waitFor(() => expect(toasts()).toEqual(['Planilha baixada: 1 linha.']));
    const saved = await readCsv(downloads.last());
    expect(saved).toMatchObject({
      name: 'orders-server.csv',
      type: 'text/csv;charset=utf-8',
      bom: true,
      lines: ['id;total', '1;129,90'],
    });
    expect(screen.getByText('Arquivo: orders-server.csv')).toBeInTheDocument();
  });

  it('a refused download says why in place and in a toast', async () => {
    render({ csv: () => json(503, { status: 'unavailable', message: 'down' }) });
    await screen.findByRole('row', { name: /Maria Souza/ });
    await keys.click(screen.getByRole('button', { name: 'Baixar CSV' }));
    expect(
      await screen.findByText('Não foi possível baixar a planilha. Serviço indisponível. Tente mais tarde.'),
    ).toBeInTheDocument();
    expect(toasts()).toEqual(['Não foi possível baixar a planilha.']);
  });
});
