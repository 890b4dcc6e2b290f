// One catalogue per language: ja.ts (the console's language and JP users' mails) and en.ts
// (US users). Code that speaks to a user in their language asks for their catalogue here.
import type { Language } from '../alert-codes';
import { en } from './en';
import { ja, type Texts } from './ja';

export type { PasswordMailFacts, Texts } from './ja';
export { en, ja };

const CATALOGUES: Record<Language, Texts> = { JP: ja, US: en };

export function textsFor(language: Language): Texts {
  return CATALOGUES[language];
}
