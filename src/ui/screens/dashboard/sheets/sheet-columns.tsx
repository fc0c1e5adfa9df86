import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCurrency, formatDateTime, formatDuration, formatNumber } from '../../../../domain/format';
import type {
  AttendanceRow,
  InstanceLogRow,
  OrderRow,
  PreviewSheetName,
  ReasonRow,
} from '../../../../machines/reports/sheet-preview.machine';
import type { DataTableColumn } from '../../../components/data-table';

type Column<T> = DataTableColumn<T>;

/** Any preview row (each has an `id`). */
export type PreviewRow = OrderRow | AttendanceRow | InstanceLogRow | ReasonRow;

/** The preview columns of each sheet: the CSV's main fields, formatted for the locale. */
export function usePreviewColumns(sheet: PreviewSheetName): Column<PreviewRow>[] {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return useMemo(() => {
    const none = t('sheets.panel.none');
    const id = <T extends PreviewRow>(): Column<T> => ({
      id: 'id',
      header: t('sheets.panel.columns.id'),
      align: 'end',
      cell: (r) => formatNumber(r.id, locale, { useGrouping: false }),
    });
    const when = <T extends { created_at: string }>(): Column<T> => ({
      id: 'created_at',
      header: t('sheets.panel.columns.createdAt'),
      cell: (r) => formatDateTime(r.created_at, locale),
    });
    const tenant = <T extends { tenantName: string }>(): Column<T> => ({
      id: 'tenantName',
      header: t('sheets.panel.columns.tenant'),
      cell: (r) => r.tenantName,
    });
    const count = (value: number | null) => (value === null ? none : formatNumber(value, locale));
    const byId: Record<PreviewSheetName, Column<never>[]> = {
      orders: [
        id<OrderRow>(),
        when<OrderRow>(),
        {
          id: 'customer_name',
          header: t('sheets.panel.columns.customer'),
          isRowHeader: true,
          cell: (r: OrderRow) => r.customer_name,
        },
        tenant<OrderRow>(),
        {
          id: 'website_id',
          header: t('sheets.panel.columns.website'),
          align: 'end',
          cell: (r: OrderRow) => count(r.website_id),
        },
        {
          id: 'status',
          header: t('sheets.panel.columns.status'),
          cell: (r: OrderRow) => t(`sheets.panel.orderStatus.${r.status}`),
        },
        {
          id: 'items',
          header: t('sheets.panel.columns.items'),
          align: 'end',
          cell: (r: OrderRow) => formatNumber(r.items, locale),
        },
        {
          id: 'total',
          header: t('sheets.panel.columns.total'),
          align: 'end',
          cell: (r: OrderRow) => formatCurrency(r.total, locale),
        },
      ],
      attendances: [
        id<AttendanceRow>(),
        {
          id: 'started_at',
          header: t('sheets.panel.columns.startedAt'),
          cell: (r: AttendanceRow) => formatDateTime(r.started_at, locale),
        },
        {
          id: 'attendant_name',
          header: t('sheets.panel.columns.attendant'),
          isRowHeader: true,
          cell: (r: AttendanceRow) => r.attendant_name ?? none,
        },
        tenant<AttendanceRow>(),
        {
          id: 'website_id',
          header: t('sheets.panel.columns.website'),
          align: 'end',
          cell: (r: AttendanceRow) => count(r.website_id),
        },
        {
          id: 'estimation',
          header: t('sheets.panel.columns.estimation'),
          cell: (r: AttendanceRow) => t(r.estimation ? 'common.yes' : 'common.no'),
        },
        {
          id: 'estimation_value',
          header: t('sheets.panel.columns.estimationValue'),
          align: 'end',
          cell: (r: AttendanceRow) => (r.estimation_value === null ? none : formatCurrency(r.estimation_value, locale)),
        },
        {
          id: 'first_response',
          header: t('sheets.panel.columns.firstResponse'),
          align: 'end',
          cell: (r: AttendanceRow) =>
            r.first_response_seconds === null ? none : formatDuration(r.first_response_seconds),
        },
        {
          id: 'handling',
          header: t('sheets.panel.columns.handling'),
          align: 'end',
          cell: (r: AttendanceRow) => (r.handling_seconds === null ? none : formatDuration(r.handling_seconds)),
        },
        {
          id: 'ticket_status',
          header: t('sheets.panel.columns.status'),
          cell: (r: AttendanceRow) => t(`sheets.panel.ticketStatus.${r.ticket_status}`),
        },
      ],
      instance_logs: [
        id<InstanceLogRow>(),
        when<InstanceLogRow>(),
        {
          id: 'instance_name',
          header: t('sheets.panel.columns.instance'),
          isRowHeader: true,
          cell: (r: InstanceLogRow) => r.instance_name,
        },
        tenant<InstanceLogRow>(),
        {
          id: 'event',
          header: t('sheets.panel.columns.event'),
          cell: (r: InstanceLogRow) => t(`sheets.panel.logEvent.${r.event}`),
        },
        { id: 'detail', header: t('sheets.panel.columns.detail'), cell: (r: InstanceLogRow) => r.detail ?? none },
      ],
      reasons: [
        id<ReasonRow>(),
        when<ReasonRow>(),
        {
          id: 'reason_name',
          header: t('sheets.panel.columns.reason'),
          isRowHeader: true,
          cell: (r: ReasonRow) => r.reason_name,
        },
        tenant<ReasonRow>(),
        {
          id: 'attendance_id',
          header: t('sheets.panel.columns.attendance'),
          align: 'end',
          cell: (r: ReasonRow) =>
            r.attendance_id === null ? none : formatNumber(r.attendance_id, locale, { useGrouping: false }),
        },
      ],
    };
    return byId[sheet] as Column<PreviewRow>[];
  }, [t, locale, sheet]);
}
