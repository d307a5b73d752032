// The offline notice and the new-version notice, in English and Japanese (the app's name and
// description in its manifests are manifest.ts's).
import { defineStrings } from '../../i18n/define';

export const offline = defineStrings(
  {
    notice: 'Offline: the sky and your quest as last seen. Your answers are kept and sent when the connection is back.',
    updateReady: 'A new version is ready.',
    reload: 'Reload',
  },
  {
    notice: 'オフラインです：前回見た天球とクエストを表示しています。回答は保存され、接続が戻ると送信されます。',
    updateReady: '新しいバージョンがあります。',
    reload: '再読み込み',
  },
);
