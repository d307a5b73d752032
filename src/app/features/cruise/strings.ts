import { defineStrings } from '../../i18n/define';

export const cruise = defineStrings(
  {
    stage: 'Stage: {{name}}',
    courseSelect: 'Course',
    menu: 'Menu',
    home: 'Home',
    loadingQuest: 'Fetching your quest',
    nextGalaxy: 'Next galaxy',
    form: 'Classify this galaxy',
    sailing: 'Sailing to this galaxy…',
    submitting: 'Saving your answer…',
    zoomHint: 'Zoom in on the marked galaxy to classify it',
    markers: {
      title: 'Markers hidden',
      message:
        'The spacebar shows or hides the markers of the targets. They are hidden now: press the spacebar again to show them.',
    },
    stepNav: 'Steps',
    step: 'Step {{step}}',
    backKey: 'Backspace: previous step',
    steps: {
      1: 'What shape is the galaxy?',
      2: 'Is it interacting with another galaxy?',
      3: 'Which features do you see?',
    },
    galaxyType: { spiral: 'Spiral', elliptical: 'Elliptical', not_sure: 'Not sure' },
    interaction: { yes: 'Yes', no: 'No', not_sure: 'Not sure' },
    features: { ring: 'Ring', fan: 'Fan', tail: 'Tail', distorted: 'Distorted' },
    submit: 'Submit',
    interacting: 'Interacting',
    target: 'Galaxy {{index}} of {{count}}',
    answered: 'answered',
    pendingHere: 'Your answer to this galaxy is waiting to be sent',
    pending_one: '{{count}} answer waiting to be sent',
    pending_other: '{{count}} answers waiting to be sent',
    allSaved: 'All answers saved',
    remaining_one: '{{count}} galaxy remains in this area',
    remaining_other: '{{count}} galaxies remain in this area',
    areaCompleted: 'Area completed!',
    savingArea: 'Saving your answers…',
    areaWaiting: {
      offline: {
        title: 'Area finished: waiting for the connection',
        message_one:
          'You are offline. Your last answer is kept on this device, even if you close the page, and is sent by itself when the connection comes back. Then the area is completed and the next one opens.',
        message_other:
          'You are offline. Your last {{count}} answers are kept on this device, even if you close the page, and are sent by themselves when the connection comes back. Then the area is completed and the next one opens.',
      },
      sending: {
        title: 'Area finished: sending your answers',
        message_one: 'Your last answer is on its way to the server. The next area opens as soon as it has arrived.',
        message_other:
          'Your last {{count}} answers are on their way to the server. The next area opens as soon as they have arrived.',
      },
      retry: 'Send now',
    },
    rejected: 'The server did not accept an answer (status {{status}}); it was dropped. Please Reload.',
    note: {
      title: "Captain's note",
      tngTitle: "Captain's note: simulated galaxy",
      yours: 'Your answer',
      captains: "The captain's answer",
      imageAlt: "The captain's colour picture of this galaxy",
      retry: 'Retry',
      next: 'Next',
    },
    chooseGame: {
      title: '{{course}}: continue or start a new game?',
      message: 'A new game deletes your quests in this course and starts it again from the first area.',
      continue: 'Continue',
      newGame: 'New game',
    },
    finished: {
      next: 'What next? Choose another course in the course menu at the top of the screen and sail on.',
      choose: 'Choose another course',
    },
    noAvailable: {
      title: 'No galaxy available',
      message: 'There is no galaxy left to classify in this course for now. Choose another course.',
    },
    levels: {
      stamp: {
        title: 'Passport stamp added',
        message: 'You completed every area of {{stage}}: a stamp was added to your passport.',
      },
      cabin: { title: 'Cabin upgrade', message: 'Your cabin was upgraded to rank {{rank}}.' },
      enterGreed: { title: 'Greed level', message: 'You entered a greed level: {{stage}}.' },
      leaveGreed: { title: 'Back to the regular course', message: 'You left the greed level for {{stage}}.' },
      levelChange: { title: 'New stage', message: 'Your cruise goes on to {{stage}}.' },
      enterTunnel: { title: 'Tunnel effect', message: 'You entered the tunnel effect: {{stage}}.' },
      finalRank: {
        title: 'Every cabin rank reached',
        message:
          'You have reached the Delux cabin, the highest rank of season 2. Thank you for sailing so far with us!',
      },
    },
    rewards: {
      medal: { title: 'Medal: {{campaign}}', message: '{{message}}' },
      piece: {
        title: 'A souvenir puzzle piece',
        message:
          'You have classified {{count}} galaxies in this course and earned a puzzle piece. Open the bag to see it.',
      },
      puzzleCompleted: {
        title: 'Souvenir completed',
        message: 'Your last piece completed a souvenir picture. Open the bag to see it.',
      },
    },
    completion: {
      training: {
        title: 'Training complete',
        message: 'You have classified every training galaxy. You are ready for season 2!',
      },
      season2: {
        title: 'Season 2 complete',
        message: 'You have sailed every area of season 2. Thank you for your classifications!',
      },
      illustris: {
        title: 'Illustris complete',
        message: 'You have classified every simulated galaxy of the Illustris course.',
      },
      illustris_review: {
        title: 'Illustris review complete',
        message: 'You have reviewed every simulated galaxy of this course.',
      },
      final_campaign: {
        title: 'Final campaign complete',
        message: 'You have classified every galaxy of the final campaign.',
      },
      imported: {
        title: 'Course complete',
        message: 'You have classified every galaxy of this course. Thank you for your classifications!',
      },
    },
    tngCompleted: {
      title: 'TNG simulation complete',
      message: 'You have classified every galaxy of the IllustrisTNG simulation. Thank you!',
    },
    finalCompleted: {
      title: 'The final campaign is complete',
      message: 'You have finished the final campaign. Thank you for sailing to the end with us!',
    },
  },
  {
    stage: 'ステージ：{{name}}',
    courseSelect: 'コース',
    menu: 'メニュー',
    home: 'ホーム',
    loadingQuest: 'クエストを取得中',
    nextGalaxy: '次の銀河',
    form: 'この銀河を分類',
    sailing: 'この銀河へ航行中…',
    submitting: '回答を保存しています…',
    zoomHint: '印の付いた銀河を拡大すると分類できます',
    markers: {
      title: 'マーカーを非表示にしました',
      message:
        'スペースキーでターゲットのマーカーを表示・非表示にできます。いまは非表示です。もう一度スペースキーを押すと表示されます。',
    },
    stepNav: 'ステップ',
    step: 'ステップ{{step}}',
    backKey: 'Backspace：前のステップ',
    steps: {
      1: '銀河の形は？',
      2: 'ほかの銀河と相互作用していますか？',
      3: 'どんな特徴が見えますか？',
    },
    galaxyType: { spiral: '渦巻銀河', elliptical: '楕円銀河', not_sure: 'わからない' },
    interaction: { yes: 'はい', no: 'いいえ', not_sure: 'わからない' },
    features: { ring: 'リング', fan: 'ファン', tail: 'テール', distorted: 'ゆがみ' },
    submit: '送信',
    interacting: '相互作用',
    target: '銀河 {{index}} / {{count}}',
    answered: '回答済み',
    pendingHere: 'この銀河への回答は送信待ちです',
    pending_one: '送信待ちの回答：{{count}}件',
    pending_other: '送信待ちの回答：{{count}}件',
    allSaved: 'すべての回答を保存しました',
    remaining_one: 'このエリアの残りの銀河：{{count}}個',
    remaining_other: 'このエリアの残りの銀河：{{count}}個',
    areaCompleted: 'エリア達成！',
    savingArea: '回答を保存しています…',
    areaWaiting: {
      offline: {
        title: 'エリア完了：接続を待っています',
        message_one:
          'オフラインです。最後の回答はこの端末に保存されていて（ページを閉じても失われません）、接続が戻ると自動で送信されます。そのあとエリアが完了し、次のエリアが始まります。',
        message_other:
          'オフラインです。最後の{{count}}件の回答はこの端末に保存されていて（ページを閉じても失われません）、接続が戻ると自動で送信されます。そのあとエリアが完了し、次のエリアが始まります。',
      },
      sending: {
        title: 'エリア完了：回答を送信しています',
        message_one: '最後の回答をサーバーに送信しています。届きしだい次のエリアが始まります。',
        message_other: '最後の{{count}}件の回答をサーバーに送信しています。届きしだい次のエリアが始まります。',
      },
      retry: '今すぐ送信',
    },
    rejected:
      'サーバーが回答を受け付けませんでした（ステータス {{status}}）。回答は破棄されました。ページを再読み込みしてください。',
    note: {
      title: '船長のノート',
      tngTitle: '船長のノート：シミュレーション銀河',
      yours: 'あなたの回答',
      captains: '船長の回答',
      imageAlt: '船長が選んだこの銀河のカラー画像',
      retry: 'やり直す',
      next: '次へ',
    },
    chooseGame: {
      title: '{{course}}：続けますか、新しく始めますか？',
      message: '新しいゲームを始めると、このコースのクエストが削除され、最初のエリアからやり直します。',
      continue: '続ける',
      newGame: '新しいゲーム',
    },
    finished: {
      next: '次は、画面上部のコースメニューからほかのコースを選んで航海を続けましょう。',
      choose: 'ほかのコースを選ぶ',
    },
    noAvailable: {
      title: '分類できる銀河がありません',
      message: 'このコースには、いま分類できる銀河が残っていません。ほかのコースを選んでください。',
    },
    levels: {
      stamp: {
        title: 'パスポートにスタンプ',
        message: '{{stage}}のすべてのエリアを達成し、パスポートにスタンプが押されました。',
      },
      cabin: { title: '客室アップグレード', message: '客室がランク{{rank}}にアップグレードされました。' },
      enterGreed: { title: 'グリードレベル', message: 'グリードレベルに入りました：{{stage}}' },
      leaveGreed: { title: '通常コースへ', message: 'グリードレベルを抜けて{{stage}}へ戻りました。' },
      levelChange: { title: '新しいステージ', message: '航海は{{stage}}へ進みます。' },
      enterTunnel: { title: 'トンネル効果', message: 'トンネル効果に入りました：{{stage}}' },
      finalRank: {
        title: 'すべての客室ランクを達成',
        message: 'シーズン2の最高ランク、デラックス客室に到達しました。ここまでの航海、ありがとうございます！',
      },
    },
    rewards: {
      medal: { title: 'メダル：{{campaign}}', message: '{{message}}' },
      piece: {
        title: 'おみやげパズルのピース',
        message:
          'このコースで{{count}}個の銀河を分類し、パズルのピースを手に入れました。バッグを開いて見てみましょう。',
      },
      puzzleCompleted: {
        title: 'おみやげが完成',
        message: '最後のピースでおみやげの絵が完成しました。バッグを開いて見てみましょう。',
      },
    },
    completion: {
      training: {
        title: 'トレーニング完了',
        message: 'トレーニングの銀河をすべて分類しました。シーズン2への準備ができました！',
      },
      season2: {
        title: 'シーズン2完了',
        message: 'シーズン2のすべてのエリアを航海しました。分類へのご協力ありがとうございます！',
      },
      illustris: {
        title: 'イラストリス完了',
        message: 'イラストリスコースのシミュレーション銀河をすべて分類しました。',
      },
      illustris_review: {
        title: 'イラストリス・レビュー完了',
        message: 'このコースのシミュレーション銀河をすべて復習しました。',
      },
      final_campaign: {
        title: 'ファイナルキャンペーン完了',
        message: 'ファイナルキャンペーンの銀河をすべて分類しました。',
      },
      imported: {
        title: 'コース完了',
        message: 'このコースの銀河をすべて分類しました。分類へのご協力ありがとうございます！',
      },
    },
    tngCompleted: {
      title: 'TNGシミュレーション完了',
      message: 'IllustrisTNGシミュレーションの銀河をすべて分類しました。ありがとうございます！',
    },
    finalCompleted: {
      title: 'ファイナルキャンペーン達成',
      message: 'ファイナルキャンペーンを最後までやり遂げました。最後までの航海、ありがとうございます！',
    },
  },
);
