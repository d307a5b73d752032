// The interface's languages (application-spec: English and Japanese), shared by the API's shapes
// and the catalogue's texts.

export type Locale = 'en' | 'ja';
export const LOCALES: readonly Locale[] = ['en', 'ja'];
