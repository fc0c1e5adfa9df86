import { makeIcon } from './make-icon';

/**
 * The icons of the native form controls (password reveal, field errors, a native select's chevron): a
 * module of their own, so the login route carries these four and not the whole set (icons.tsx
 * re-exports them).
 */
export const EyeIcon = /* @__PURE__ */ makeIcon([
  'M1 12s4-8 11-8 11 8 11 8-4 8-11 8-11-8-11-8z',
  'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
]);
export const EyeOffIcon = /* @__PURE__ */ makeIcon([
  'M17.94 17.94A10.07 10.07 0 0 1 12 20c-7 0-11-8-11-8a18.45 18.45 0 0 1 5.06-5.94',
  'M9.9 4.24A9.12 9.12 0 0 1 12 4c7 0 11 8 11 8a18.5 18.5 0 0 1-2.16 3.19',
  'M14.12 14.12a3 3 0 1 1-4.24-4.24',
  'M1 1l22 22',
]);
export const AlertIcon = /* @__PURE__ */ makeIcon([
  'M10.29 3.86L1.82 18a2 2 0 0 0 1.71 3h16.94a2 2 0 0 0 1.71-3L13.71 3.86a2 2 0 0 0-3.42 0z',
  'M12 9v4',
  'M12 17h.01',
]);
export const ChevronDownIcon = /* @__PURE__ */ makeIcon(['M6 9l6 6 6-6']);
