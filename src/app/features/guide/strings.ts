import { defineStrings } from '../../i18n/define';

// The header's guide pages (application-spec §2: how-to-operate guide, mission, tips): short
// texts about this product as it is built, each paragraph one string.
export const guide = defineStrings(
  {
    howTo: {
      link: 'How to operate',
      title: 'How to operate',
      sections: {
        globe: {
          heading: 'Moving around the sky',
          body: 'Drag the sky to turn it, and zoom with the mouse wheel or a two-finger pinch. A double-click centres the view on the point clicked; on a touch screen a double-tap centres and zooms in, and a two-finger tap zooms out. With the sky focused (Tab to it), the arrow keys pan and + / − zoom.',
        },
        answer: {
          heading: 'Classifying a galaxy',
          body: 'The camera flies to your current target. Once you are zoomed in on it, the answer form appears at the bottom: first the galaxy type, then whether it is interacting with another galaxy, and for interacting galaxies the features you see (ring, fan, tail, distorted). Press 1, 2 or 3 to choose, Enter to send the features, and Backspace to go back one step.',
        },
        buttons: {
          heading: 'Buttons and keys',
          body: 'The rudder (N) takes you to the next galaxy of the area. The suitcase (M) opens your voyage log. The spacebar shows or hides the markers of the targets. The camera indicator at the bottom right shows where you are looking and how wide the view is.',
        },
        saved: {
          heading: 'Your answers are kept',
          body: 'Each answer is saved in your browser first and sent to the server; on a bad connection it is marked as pending and sent when the connection returns.',
        },
      },
    },
    mission: {
      link: 'Mission',
      title: 'Your mission',
      paragraphs: {
        what: 'Galaxy Cruise is a citizen-science project: volunteers look at images of galaxies taken by a large telescope survey and classify their shapes.',
        why: 'Computers still miss faint tails, rings and the distorted shapes that appear when galaxies collide. Your eyes help astronomers find interacting galaxies and learn how galaxies grow and change.',
        how: 'Each area of the map holds a set of target galaxies. Classify them all to finish the area, unlock the next level, collect passport stamps and souvenir galaxies, and move up your cabin rank.',
        answers:
          'Many volunteers classify every galaxy, so no single answer has to be perfect: when you are unsure, "Not sure" is a useful answer too.',
      },
    },
    tips: {
      link: 'Tips',
      title: 'Tips',
      items: {
        zoom: 'Zoom out a little to see the galaxy against its neighbours: a tail or a bridge of light often shows best at a wider view.',
        spiral:
          'Spiral galaxies show arms or a flat disc, often bluish; elliptical galaxies are smooth, round or oval and yellowish, with no arms.',
        interacting:
          'Interacting galaxies are close pairs or groups linked by tails, bridges, shells or fans of stars, or a single galaxy with a clearly distorted shape.',
        training:
          'The training course shows the captain\u2019s reference answer after each galaxy: a good place to practise before the main course.',
        settings:
          'In the settings, the expert mode lets you change filters and brightness when a faint feature is hard to see.',
        keys: 'From the keyboard alone: 1, 2, 3 to answer, N for the next galaxy, M for your voyage log.',
      },
    },
  },
  {
    howTo: {
      link: '操作方法',
      title: '操作方法',
      sections: {
        globe: {
          heading: '空を動き回る',
          body: '空をドラッグすると回転し、マウスホイールや2本指のピンチでズームします。ダブルクリックするとその地点が中央に来ます。タッチ画面ではダブルタップで中央に寄せてズームイン、2本指のタップでズームアウトします。空にフォーカスがあるとき（Tabキーで移動）は、矢印キーで移動し、+ と − でズームします。',
        },
        answer: {
          heading: '銀河を分類する',
          body: 'カメラは現在のターゲットまで飛んでいきます。ターゲットにズームインすると、画面下に回答フォームが現れます。まず銀河の種類、次にほかの銀河と相互作用しているか、相互作用している場合は見える特徴（リング、扇、尾、ゆがみ）を選びます。1・2・3キーで選び、Enterキーで特徴を送信し、Backspaceキーで一つ前の段階に戻ります。',
        },
        buttons: {
          heading: 'ボタンとキー',
          body: '舵（N）でエリア内の次の銀河へ進みます。スーツケース（M）で航海日誌を開きます。スペースキーでターゲットのマーカーを表示・非表示にします。右下のカメラ表示は、見ている位置と視野の広さを示します。',
        },
        saved: {
          heading: '回答は失われません',
          body: '回答はまずブラウザに保存されてからサーバーに送られます。通信状態が悪いときは送信待ちと表示され、回復したときに送られます。',
        },
      },
    },
    mission: {
      link: 'ミッション',
      title: 'あなたのミッション',
      paragraphs: {
        what: 'ギャラクシークルーズは市民天文学のプロジェクトです。参加者は大型望遠鏡の観測で撮影された銀河の画像を見て、その形を分類します。',
        why: 'かすかな尾やリング、銀河どうしが衝突したときに現れるゆがんだ形は、コンピューターではまだ見落とされがちです。あなたの目が、相互作用する銀河を見つけ、銀河がどのように成長し変化するのかを知る手がかりになります。',
        how: '地図の各エリアにはターゲットの銀河があります。すべて分類するとエリアを完了し、次のレベルが開放され、パスポートのスタンプやおみやげの銀河が集まり、客室のランクが上がります。',
        answers:
          'どの銀河も多くの参加者が分類するので、一つひとつの回答が完璧である必要はありません。迷ったときは「わからない」も役に立つ回答です。',
      },
    },
    tips: {
      link: 'ヒント',
      title: 'ヒント',
      items: {
        zoom: '少しズームアウトして、周りの銀河と一緒に見てみましょう。尾や光の橋は、広めの視野のほうがよく見えることがあります。',
        spiral:
          '渦巻銀河には腕や平たい円盤が見え、青みがかっていることが多いです。楕円銀河はなめらかで丸や楕円の形をしており、黄色っぽく、腕はありません。',
        interacting:
          '相互作用している銀河は、尾や橋、殻、扇形の星の流れでつながった近いペアやグループ、またははっきりとゆがんだ形の銀河です。',
        training:
          'トレーニングコースでは、銀河ごとに船長の模範回答が表示されます。本番のコースの前に練習するのに最適です。',
        settings: '設定のエキスパートモードでは、かすかな特徴が見えにくいときにフィルターや明るさを変えられます。',
        keys: 'キーボードだけでも操作できます。1・2・3で回答、Nで次の銀河、Mで航海日誌です。',
      },
    },
  },
);
