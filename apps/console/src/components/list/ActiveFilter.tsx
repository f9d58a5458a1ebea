import { FilterSelect } from './FilterSelect';

/** «Статус» filter of a list: active only, disabled only, or (cleared) all; `undefined` means all. */
export function ActiveFilter({
  value,
  onChange,
  width,
}: {
  value: boolean | undefined;
  onChange: (active: boolean | undefined) => void;
  width: number;
}) {
  return (
    <FilterSelect
      label="Статус"
      value={value === undefined ? undefined : value ? 'on' : 'off'}
      onChange={(v) => onChange(v === undefined ? undefined : v === 'on')}
      options={[
        { value: 'on', label: 'Активные' },
        { value: 'off', label: 'Отключённые' },
      ]}
      width={width}
    />
  );
}
