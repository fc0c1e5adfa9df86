import { makeIcon } from './make-icon';

/*
 * The primitives' icon set. `makeIcon` and the form controls' icons live in their own modules (the
 * login route needs only those); everything is re-exported here.
 */
export { makeIcon, type IconProps } from './make-icon';
export { AlertIcon, ChevronDownIcon, EyeIcon, EyeOffIcon } from './form-icons';

export const ChevronUpIcon = /* @__PURE__ */ makeIcon(['M18 15l-6-6-6 6']);
export const ChevronLeftIcon = /* @__PURE__ */ makeIcon(['M15 18l-6-6 6-6']);
export const ChevronRightIcon = /* @__PURE__ */ makeIcon(['M9 18l6-6-6-6']);
export const ChevronsLeftIcon = /* @__PURE__ */ makeIcon(['M11 17l-5-5 5-5', 'M18 17l-5-5 5-5']);
export const ChevronsRightIcon = /* @__PURE__ */ makeIcon(['M13 17l5-5-5-5', 'M6 17l5-5-5-5']);
export const CheckIcon = /* @__PURE__ */ makeIcon(['M20 6L9 17l-5-5']);
export const MinusIcon = /* @__PURE__ */ makeIcon(['M5 12h14']);
export const PlusIcon = /* @__PURE__ */ makeIcon(['M12 5v14', 'M5 12h14']);
export const CloseIcon = /* @__PURE__ */ makeIcon(['M18 6L6 18', 'M6 6l12 12']);
export const SearchIcon = /* @__PURE__ */ makeIcon(['M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16z', 'M21 21l-4.35-4.35']);
export const CalendarIcon = /* @__PURE__ */ makeIcon(['M3 5h18v16H3z', 'M16 3v4', 'M8 3v4', 'M3 10h18']);
export const ArrowUpIcon = /* @__PURE__ */ makeIcon(['M12 19V5', 'M5 12l7-7 7 7']);
export const ArrowDownIcon = /* @__PURE__ */ makeIcon(['M12 5v14', 'M19 12l-7 7-7-7']);
export const SortIcon = /* @__PURE__ */ makeIcon(['M7 15l5 5 5-5', 'M7 9l5-5 5 5']);
export const LockIcon = /* @__PURE__ */ makeIcon(['M5 11h14v10H5z', 'M8 11V7a4 4 0 0 1 8 0v4']);
export const InfoIcon = /* @__PURE__ */ makeIcon([
  'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20z',
  'M12 16v-4',
  'M12 8h.01',
]);
export const SuccessIcon = /* @__PURE__ */ makeIcon(['M22 11.08V12a10 10 0 1 1-5.93-9.14', 'M22 4L12 14.01l-3-3']);
export const InboxIcon = /* @__PURE__ */ makeIcon([
  'M22 12h-6l-2 3h-4l-2-3H2',
  'M5.45 5.11L2 12v6a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2v-6l-3.45-6.89A2 2 0 0 0 16.76 4H7.24a2 2 0 0 0-1.79 1.11z',
]);
