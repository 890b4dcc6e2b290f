// The user-group selects of the store and user forms (001 §2): one select per chosen group, the
// first carrying the field's error, and ＋ to add one. ＋ is a submit button (intent add_group) so
// that without JavaScript the server answers the form with one more select; with JavaScript the
// form adds it in place.

export interface UsergroupOption {
  usergroup_id: number;
  usergroup_name: string;
}

export function UsergroupSelects({
  slots,
  onChange,
  groups,
  error,
  required = false,
  className,
  listClassName = 'space-y-2',
}: {
  slots: string[];
  onChange: (slots: string[]) => void;
  groups: readonly UsergroupOption[];
  error?: string;
  required?: boolean;
  className?: string;
  listClassName?: string;
}) {
  return (
    <fieldset className={className}>
      <legend className="label">
        ユーザーグループ{required && <span className="ml-1 text-xs text-red-600">必須</span>}
      </legend>
      <div className={listClassName}>
        {slots.map((slot, index) => (
          <div key={index}>
            <select
              name="usergroup"
              aria-label={`ユーザーグループ ${index + 1}`}
              className="input"
              value={slot}
              onChange={(event) => onChange(slots.map((old, i) => (i === index ? event.target.value : old)))}
              aria-invalid={index === 0 && error ? true : undefined}
            >
              <option value="">選択してください</option>
              {groups.map((group) => (
                <option key={group.usergroup_id} value={group.usergroup_id}>
                  {group.usergroup_name}
                </option>
              ))}
            </select>
            {index === 0 && <p className="field-error">{error}</p>}
          </div>
        ))}
      </div>
      <button type="submit" name="intent" value="add_group" className="btn-secondary mt-2 px-3 py-1" aria-label="ユーザーグループを追加">
        ＋
      </button>
    </fieldset>
  );
}
