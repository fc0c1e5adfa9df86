import { createRoot } from 'react-dom/client';
import {
  Admin,
  DataTable,
  List,
  Login,
  LoginForm,
  PasswordInput,
  Resource,
  SearchInput,
  TextInput,
  required,
} from 'react-admin';
import { makeTenants, queryTenants } from '../../tenants-data.mjs';

const tenants = makeTenants();
const USER_KEY = 'bench-peer-user';

/** Sign-in accepts any e-mail and password: no server, no hashing (bench/page-load.ts says so next to the ratios). */
const authProvider = {
  login: ({ email, password }) =>
    email && password
      ? Promise.resolve(localStorage.setItem(USER_KEY, email))
      : Promise.reject(new Error('E-mail and password are required')),
  logout: () => Promise.resolve(localStorage.removeItem(USER_KEY)),
  checkAuth: () => (localStorage.getItem(USER_KEY) ? Promise.resolve() : Promise.reject()),
  checkError: () => Promise.resolve(),
  getIdentity: () => Promise.resolve({ id: localStorage.getItem(USER_KEY), fullName: localStorage.getItem(USER_KEY) }),
  getPermissions: () => Promise.resolve(),
};

/** In memory: the list's page, search (`q`) and sort; one record for anything that asks. */
const dataProvider = {
  getList: (_resource, { pagination, sort, filter }) =>
    Promise.resolve(
      queryTenants(tenants, {
        q: filter?.q,
        field: sort?.field,
        order: sort?.order,
        page: pagination?.page,
        perPage: pagination?.perPage,
      }),
    ),
  getOne: (_resource, { id }) => Promise.resolve({ data: tenants.find((t) => String(t.id) === String(id)) }),
  getMany: (_resource, { ids }) =>
    Promise.resolve({ data: tenants.filter((t) => ids.map(String).includes(String(t.id))) }),
  getManyReference: () => Promise.resolve({ data: [], total: 0 }),
  create: () => Promise.reject(new Error('read-only')),
  update: () => Promise.reject(new Error('read-only')),
  updateMany: () => Promise.reject(new Error('read-only')),
  delete: () => Promise.reject(new Error('read-only')),
  deleteMany: () => Promise.reject(new Error('read-only')),
};

const SignIn = () => (
  <Login>
    <LoginForm>
      <TextInput autoFocus source="email" label="E-mail" type="email" autoComplete="email" validate={required()} />
      <PasswordInput source="password" label="Password" autoComplete="current-password" validate={required()} />
    </LoginForm>
  </Login>
);

const filters = [<SearchInput key="q" source="q" alwaysOn />];

// Newest first and 100 a page: the same page the panel shows at /tenants?limit=100 (id descending).
const TenantList = () => (
  <List filters={filters} perPage={100} sort={{ field: 'id', order: 'DESC' }}>
    <DataTable>
      <DataTable.NumberCol source="id" />
      <DataTable.Col source="name" />
      <DataTable.Col source="cnpj" label="CNPJ" />
      <DataTable.Col source="plan" />
      <DataTable.NumberCol source="userLimit" label="User limit" />
      <DataTable.NumberCol source="ticketLimit" label="Ticket limit" />
    </DataTable>
  </List>
);

createRoot(document.getElementById('root')).render(
  <Admin dataProvider={dataProvider} authProvider={authProvider} loginPage={SignIn} requireAuth disableTelemetry>
    <Resource name="tenants" list={TenantList} />
  </Admin>,
);
