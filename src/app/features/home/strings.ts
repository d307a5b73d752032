import { defineStrings } from '../../i18n/define';

export const home = defineStrings({ preparing: 'Preparing your cruise' }, { preparing: 'クルーズの準備中' });
