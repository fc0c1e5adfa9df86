import { createRoot } from 'react-dom/client';
import { Authenticated, Refine } from '@refinedev/core';
import {
  AuthPage,
  ErrorComponent,
  List,
  RefineThemes,
  ThemedLayout,
  getDefaultSortOrder,
  useNotificationProvider,
  useTable,
} from '@refinedev/antd';
import routerProvider, { CatchAllNavigate, NavigateToResource } from '@refinedev/react-router';
import { App as AntdApp, ConfigProvider, Form, Input, Table } from 'antd';
import { BrowserRouter, Outlet, Route, Routes } from 'react-router';
import '@refinedev/antd/dist/reset.css';
import { makeTenants, queryTenants } from '../../tenants-data.mjs';

const tenants = makeTenants();
const USER_KEY = 'bench-peer-user';

/** Sign-in accepts any e-mail and password: no server, no hashing (bench/page-load.ts says so next to the ratios). */
const authProvider = {
  login: async ({ email, password }) => {
    if (!email || !password)
      return { success: false, error: { name: 'Sign-in failed', message: 'E-mail and password are required' } };
    localStorage.setItem(USER_KEY, email);
    return { success: true, redirectTo: '/tenants' };
  },
  logout: async () => {
    localStorage.removeItem(USER_KEY);
    return { success: true, redirectTo: '/login' };
  },
  check: async () =>
    localStorage.getItem(USER_KEY)
      ? { authenticated: true }
      : { authenticated: false, redirectTo: '/login', logout: true },
  onError: async () => ({}),
  getIdentity: async () => ({ id: 1, name: localStorage.getItem(USER_KEY) }),
  getPermissions: async () => null,
};

/** In memory: the list's page, search (the `q` filter) and sort; one record for anything that asks. */
const dataProvider = {
  getList: async ({ pagination, sorters, filters }) => {
    const q = filters?.find((f) => f.field === 'q')?.value ?? '';
    const [sorter] = sorters ?? [];
    return queryTenants(tenants, {
      q,
      field: sorter?.field,
      order: sorter?.order,
      page: pagination?.currentPage,
      perPage: pagination?.pageSize,
    });
  },
  getOne: async ({ id }) => ({ data: tenants.find((t) => String(t.id) === String(id)) }),
  create: async () => Promise.reject(new Error('read-only')),
  update: async () => Promise.reject(new Error('read-only')),
  deleteOne: async () => Promise.reject(new Error('read-only')),
  getApiUrl: () => '/',
};

// Newest first and 100 a page: the same page the panel shows at /tenants?limit=100 (id descending).
const TenantList = () => {
  const { tableProps, searchFormProps, sorters } = useTable({
    pagination: { pageSize: 100 },
    sorters: { initial: [{ field: 'id', order: 'desc' }] },
    onSearch: ({ q }) => [{ field: 'q', operator: 'contains', value: q }],
  });
  return (
    <List>
      <Form {...searchFormProps} layout="inline" style={{ marginBottom: 16 }}>
        <Form.Item name="q">
          <Input.Search placeholder="Search" allowClear onSearch={() => searchFormProps.form?.submit()} />
        </Form.Item>
      </Form>
      <Table {...tableProps} rowKey="id">
        <Table.Column dataIndex="id" title="ID" sorter defaultSortOrder={getDefaultSortOrder('id', sorters)} />
        <Table.Column dataIndex="name" title="Name" sorter />
        <Table.Column dataIndex="cnpj" title="CNPJ" sorter />
        <Table.Column dataIndex="plan" title="Plan" sorter />
        <Table.Column dataIndex="userLimit" title="User limit" sorter />
        <Table.Column dataIndex="ticketLimit" title="Ticket limit" sorter />
      </Table>
    </List>
  );
};

const App = () => (
  <BrowserRouter>
    <ConfigProvider theme={RefineThemes.Blue}>
      <AntdApp>
        <Refine
          dataProvider={dataProvider}
          authProvider={authProvider}
          routerProvider={routerProvider}
          notificationProvider={useNotificationProvider}
          resources={[{ name: 'tenants', list: '/tenants' }]}
          options={{ syncWithLocation: true, disableTelemetry: true }}
        >
          <Routes>
            <Route
              element={
                <Authenticated key="signed-in" fallback={<CatchAllNavigate to="/login" />}>
                  <ThemedLayout>
                    <Outlet />
                  </ThemedLayout>
                </Authenticated>
              }
            >
              <Route index element={<NavigateToResource resource="tenants" />} />
              <Route path="/tenants" element={<TenantList />} />
              <Route path="*" element={<ErrorComponent />} />
            </Route>
            <Route
              element={
                <Authenticated key="signed-out" fallback={<Outlet />}>
                  <NavigateToResource />
                </Authenticated>
              }
            >
              <Route path="/login" element={<AuthPage type="login" />} />
            </Route>
          </Routes>
        </Refine>
      </AntdApp>
    </ConfigProvider>
  </BrowserRouter>
);

createRoot(document.getElementById('root')).render(<App />);
