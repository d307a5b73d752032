import { defineStrings } from '../../i18n/define';

export const terms = defineStrings(
  {
    title: 'Terms of use',
    sections: {
      purposeTitle: 'Purpose',
      purpose:
        'Galaxy Cruise is a citizen-science site: volunteers classify galaxies in survey images, and their answers are used for research on galaxy interactions and evolution.',
      accountTitle: 'Your account',
      account:
        'Keep your password to yourself. Your nickname appears in the rankings; choose one that does not offend others. You may delete your account at any time from your profile.',
      dataTitle: 'Your answers and your data',
      data: 'Your classifications may be used and published in research results without your name. They are kept when you delete your account. Your e-mail address and questionnaire answers are used only to run the site and for statistics about volunteers.',
      conductTitle: 'Conduct',
      conduct:
        'Do not send automated answers, do not try to disturb the service, and do not use it for anything unlawful. Accounts that do may be suspended.',
      changesTitle: 'Changes',
      changes:
        'These terms may change; the changes are announced in the captain messages. The service is provided as it is, and may be interrupted or end.',
    },
  },
  {
    title: '利用規約',
    sections: {
      purposeTitle: '目的',
      purpose:
        'GALAXY CRUISE は市民天文学のサイトです。ボランティアが観測画像の銀河を分類し、その回答は銀河の衝突や進化の研究に使われます。',
      accountTitle: 'アカウント',
      account:
        'パスワードは他人に教えないでください。ニックネームはランキングに表示されます。他の人を不快にさせない名前を選んでください。アカウントはプロフィールからいつでも削除できます。',
      dataTitle: '回答とデータ',
      data: 'あなたの分類結果は、名前を伏せて研究成果に使われ、公開されることがあります。アカウントを削除しても分類結果は残ります。メールアドレスとアンケートの回答は、サイトの運営とボランティアに関する統計にのみ使います。',
      conductTitle: '禁止事項',
      conduct:
        '自動化した回答の送信、サービスの妨害、法に反する利用はしないでください。これらを行ったアカウントは停止することがあります。',
      changesTitle: '変更',
      changes:
        'この規約は変更されることがあり、変更は船長からのメッセージでお知らせします。サービスは現状のまま提供され、中断や終了をすることがあります。',
    },
  },
);
