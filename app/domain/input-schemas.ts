import { z } from 'zod';

// What any text or number of an input must be for PostgreSQL to take it, whatever the field:
// one rule each, used by every input schema (the bad-input sweep, tests/api/bad-input.test.ts,
// tries every field of every call with the values these refuse).

/**
 * Text PostgreSQL stores as it was sent: no NUL (text columns refuse it: a 500) and no half of a
 * UTF-16 surrogate pair without the other (not Unicode: a jsonb refuses it, a text column would
 * store U+FFFD). One character class in unicode mode, so a 1 MB string is checked in one pass.
 */
const STORABLE_TEXT = /^[^\0\p{Cs}]*$/u;

export const UNSTORABLE_TEXT_MESSAGE = 'must not contain NUL or unpaired surrogate characters';

export const isStorableText = (value: string) => STORABLE_TEXT.test(value);

/**
 * A string field of an input: z.string refusing what PostgreSQL cannot store. Still a ZodString,
 * so the field's own rules chain after it (`dbText().trim().min(1).max(20)`).
 */
export const dbText = (params?: Parameters<typeof z.string>[0], message = UNSTORABLE_TEXT_MESSAGE) => z.string(params).regex(STORABLE_TEXT, message);

/**
 * A name (of a store, user, group, company, notice…): one line of text, since names are put into
 * mail subjects and bodies, CSV cells and headers. Refuses every control character (CR, LF, TAB,
 * ESC, DEL, C1 …), so a name can never add a line to a mail (issue 30 item 6).
 */
const NAME_TEXT = /^[^\p{Cc}]*$/u;

export const NAME_CONTROL_MESSAGE = '改行や制御文字は使用できません';

export const nameText = (params?: Parameters<typeof z.string>[0]) => dbText(params).regex(NAME_TEXT, NAME_CONTROL_MESSAGE);

/** The ranges of PostgreSQL's integer columns: an input number past its column's is refused, not a 500. */
export const INT4_MAX = 2_147_483_647;
export const SMALLINT_MAX = 32_767;

/**
 * A number a body may send as JSON or as text (z.coerce.number(...) with its checks), with objects
 * and arrays refused as not numbers before the coercion: Number({"toString": "x"}) throws (a 500)
 * and Number([7]) is 7. Queries and forms carry only text, so only body fields need it.
 */
export const bodyNumber = <T extends z.ZodTypeAny>(coerced: T) => z.preprocess((value) => (typeof value === 'object' && value !== null ? Number.NaN : value), coerced);
