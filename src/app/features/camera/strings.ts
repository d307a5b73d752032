import { defineStrings } from '../../i18n/define';

export const camera = defineStrings(
  {
    open: 'Camera',
    saved: 'Screenshot saved',
    notSupported: 'This function is not available in your browser',
    noContext: 'The screenshot could not be made: this browser gave no 2D canvas to draw it on.',
  },
  {
    open: 'カメラ',
    saved: 'スクリーンショットを保存しました',
    notSupported: 'この機能はお使いのブラウザでは利用できません',
    noContext: 'スクリーンショットを作れませんでした。このブラウザでは2Dキャンバスを使えません。',
  },
);
