/**
 * The pages of the listing site (listing-site.ts): a coffee machine maker's manual, help pages,
 * blog articles and Japanese pages, each with the terms its site's index and glossary list, and
 * the paths and titles of the listing pages. The listing pages are rendered from this data, so an
 * entry always names a term its page really holds.
 */
export const SITE_NAME = 'Larkspur Coffee Help';

/** A term an index or glossary entry names, and where on its page the term is. */
export interface ListedTerm {
  term: string;
  /** The id of the section holding it (the entry's link target). */
  section: string;
  /** For an index sub-entry: the term it sits under (`gasket` for `gasket, group head`). */
  under?: string;
}

export interface ContentSection {
  id: string;
  heading: string;
  paragraphs: string[];
}

export interface ContentPage {
  path: string;
  title: string;
  lang: 'en' | 'ja';
  sections: ContentSection[];
  /** Entries of the back-of-the-book index (English pages). */
  indexTerms?: ListedTerm[];
  /** Entries of the glossary (Japanese pages): the term and its short definition. */
  glossary?: (ListedTerm & { definition: string })[];
}

export const LISTING_PATHS = {
  index: '/manual/ix01.html',
  sitemap: '/sitemap.html',
  contents: '/manual/index.html',
  archive: '/blog/archive.html',
  glossary: '/ja/glossary.html',
} as const;

export const LISTING_TITLES = {
  index: 'Index',
  sitemap: 'Sitemap',
  contents: 'Table of Contents',
  archive: 'Archive',
  glossary: '用語集',
} as const;

/** The manual's chapters and the help appendices, in the order of the table of contents. */
export const MANUAL_PAGES: readonly ContentPage[] = [
  {
    path: '/manual/unpacking.html',
    title: 'Unpacking and first setup',
    lang: 'en',
    sections: [
      {
        id: 'box',
        heading: 'What is in the box',
        paragraphs: [
          'The carton holds the machine, a 58 mm portafilter, two filter baskets, a stainless milk pitcher ' +
            'and a plastic tamper. Keep the foam inserts until the trial month is over: a return is only ' +
            'accepted in the original packing.',
        ],
      },
      {
        id: 'placing',
        heading: 'Placing the machine',
        paragraphs: [
          'Stand the machine on a level counter at least ten centimetres from the wall so the vents stay ' +
            'clear. Fill the reservoir with cold water, seat it firmly and run two empty cycles to flush ' +
            'the boiler before the first shot.',
        ],
      },
    ],
    indexTerms: [
      { term: 'reservoir', section: 'placing' },
      { term: 'foam inserts', section: 'box' },
      { term: 'vents', section: 'placing' },
      { term: 'tamper', section: 'box' },
    ],
  },
  {
    path: '/manual/grinding.html',
    title: 'Grind settings',
    lang: 'en',
    sections: [
      {
        id: 'dial',
        heading: 'The grind dial',
        paragraphs: [
          'Turn the dial one click at a time while the motor runs. Each click moves the lower burr by ' +
            'twenty microns; a shot that runs fast wants a finer setting, one that chokes wants a coarser ' +
            'one.',
        ],
      },
      {
        id: 'burrs',
        heading: 'Caring for the burrs',
        paragraphs: [
          'After a year of daily use check the burr alignment with a marker: colour the cutting edges, ' +
            'run the grinder empty for a second and look for an even wear pattern. Brush out the ' +
            'retention in the chute every week so stale grounds do not fall into the next dose.',
        ],
      },
    ],
    indexTerms: [
      { term: 'alignment', under: 'burr', section: 'burrs' },
      { term: 'retention', under: 'burr', section: 'burrs' },
      { term: 'burr alignment', section: 'burrs' },
      { term: 'grind dial', section: 'dial' },
      { term: 'microns', section: 'dial' },
    ],
  },
  {
    path: '/manual/brewing.html',
    title: 'Pulling a shot',
    lang: 'en',
    sections: [
      {
        id: 'dose',
        heading: 'Dose and tamp',
        paragraphs: [
          'Weigh eighteen grams into the double basket, level the bed with a tap and press straight down. ' +
            'Uneven tamping leaves a weak side where water rushes through, which is called channeling and ' +
            'tastes sour and thin.',
        ],
      },
      {
        id: 'preinfusion',
        heading: 'Pre-infusion',
        paragraphs: [
          'The pump first wets the puck at low pressure for six seconds, so the coffee swells evenly ' +
            'before full pressure arrives.',
        ],
      },
    ],
    indexTerms: [
      { term: 'channeling', section: 'dose' },
      { term: 'pre-infusion', section: 'preinfusion' },
      { term: 'double basket', section: 'dose' },
      { term: 'puck', section: 'preinfusion' },
    ],
  },
  {
    path: '/manual/steaming.html',
    title: 'Steaming milk',
    lang: 'en',
    sections: [
      {
        id: 'wand',
        heading: 'Using the wand',
        paragraphs: [
          'Open the knob for a second over the drip tray before steaming: the wand purge blows out the ' +
            'condensed water. Then sink the tip just under the surface and let it draw air until the ' +
            'pitcher feels warm.',
        ],
      },
      {
        id: 'microfoam',
        heading: 'Microfoam',
        paragraphs: ['Fine, glossy bubbles come from stretching early and spinning the milk for the rest.'],
      },
    ],
    indexTerms: [
      { term: 'wand purge', section: 'wand' },
      { term: 'microfoam', section: 'microfoam' },
      { term: 'drip tray', section: 'wand' },
    ],
  },
  {
    path: '/manual/descaling.html',
    title: 'Descaling the boiler',
    lang: 'en',
    sections: [
      {
        id: 'why',
        heading: 'Why the boiler needs it',
        paragraphs: [
          'Minerals from the water settle on the heating element and slowly choke the valves. Dissolve ' +
            'one sachet of citric acid in a full tank and run it through the group and the wand until ' +
            'the tank is empty; rinse twice with clean water.',
        ],
      },
      {
        id: 'schedule',
        heading: 'Descaling schedule',
        paragraphs: ['Hard water calls for a cycle every month, soft water for one every quarter.'],
      },
    ],
    indexTerms: [
      { term: 'citric acid', section: 'why' },
      { term: 'heating element', section: 'why' },
      { term: 'descaling schedule', section: 'schedule' },
    ],
  },
  {
    path: '/manual/cleaning.html',
    title: 'Daily cleaning',
    lang: 'en',
    sections: [
      {
        id: 'backflush',
        heading: 'At the end of the day',
        paragraphs: [
          'Fit the blind basket, add half a spoon of detergent and run five cycles of backflushing, ten ' +
            'seconds on and ten off. Wipe the shower screen and rinse the portafilter under hot water.',
        ],
      },
      {
        id: 'gasket',
        heading: 'Seals',
        paragraphs: [
          'When the portafilter swings past six o’clock the group head gasket is worn; a fresh one ' +
            'takes five minutes to fit.',
        ],
      },
    ],
    indexTerms: [
      { term: 'backflushing', section: 'backflush' },
      { term: 'blind basket', section: 'backflush' },
      { term: 'shower screen', section: 'backflush' },
      { term: 'group head', under: 'gasket', section: 'gasket' },
    ],
  },
  {
    path: '/manual/water.html',
    title: 'Water quality',
    lang: 'en',
    sections: [
      {
        id: 'hardness',
        heading: 'Measuring hardness',
        paragraphs: [
          'Dip one of the test strips from the box in tap water for a second and read the water hardness ' +
            'from the colour chart; four or more bands mean hard water that needs the softening cartridge.',
        ],
      },
    ],
    indexTerms: [
      { term: 'test strips', section: 'hardness' },
      { term: 'water hardness', section: 'hardness' },
      { term: 'softening cartridge', section: 'hardness' },
    ],
  },
  {
    path: '/manual/troubleshooting.html',
    title: 'Troubleshooting',
    lang: 'en',
    sections: [
      {
        id: 'power',
        heading: 'The machine does not heat',
        paragraphs: [
          'If the lamp lights but the boiler stays cold, the thermal fuse has tripped after a dry run. ' +
            'It does not reset itself: a service centre replaces it.',
        ],
      },
      {
        id: 'codes',
        heading: 'Error codes',
        paragraphs: [
          'E1 means the flowmeter saw no water; E2 a probe fault. A loud rattle with no flow is pump ' +
            'noise from air in the line: refill and open the wand for a minute.',
        ],
      },
    ],
    indexTerms: [
      { term: 'thermal fuse', section: 'power' },
      { term: 'flowmeter', section: 'codes' },
      { term: 'pump noise', section: 'codes' },
    ],
  },
  {
    path: '/help/warranty.html',
    title: 'Warranty and repairs',
    lang: 'en',
    sections: [
      {
        id: 'cover',
        heading: 'What the warranty covers',
        paragraphs: [
          'Two years on parts and labour from the day of delivery. Send the serial number from the ' +
            'plate on the back together with the proof of purchase when you open a claim.',
        ],
      },
    ],
    indexTerms: [
      { term: 'serial number', section: 'cover' },
      { term: 'proof of purchase', section: 'cover' },
    ],
  },
  {
    path: '/help/shipping.html',
    title: 'Shipping and returns',
    lang: 'en',
    sections: [
      {
        id: 'returns',
        heading: 'Sending a machine back',
        paragraphs: [
          'Unopened machines go back free of charge within thirty days. An opened machine carries a ' +
            'restocking fee of ten percent; print the prepaid label from your order page.',
        ],
      },
    ],
    indexTerms: [
      { term: 'restocking fee', section: 'returns' },
      { term: 'prepaid label', section: 'returns' },
    ],
  },
  {
    path: '/help/accessories.html',
    title: 'Accessories',
    lang: 'en',
    sections: [
      {
        id: 'tools',
        heading: 'Tools for the bar',
        paragraphs: [
          'A dosing funnel clips on the portafilter and keeps grounds off the counter; a bottomless ' +
            'portafilter shows every flaw of the puck as it brews.',
        ],
      },
    ],
    indexTerms: [
      { term: 'dosing funnel', section: 'tools' },
      { term: 'bottomless portafilter', section: 'tools' },
    ],
  },
  {
    path: '/help/contact.html',
    title: 'Contacting support',
    lang: 'en',
    sections: [
      {
        id: 'hours',
        heading: 'Opening hours',
        paragraphs: ['Our technicians answer on weekdays from nine to five, Pacific time.'],
      },
    ],
    indexTerms: [{ term: 'technicians', section: 'hours' }],
  },
];

/**
 * The blog's articles; the archive shows each with its first paragraph as the excerpt. Articles
 * are several times longer than their excerpts, as real posts are, so the archive's body is the
 * shorter one.
 */
export const ARTICLES: readonly ContentPage[] = [
  {
    path: '/blog/2025/light-roasts.html',
    title: 'Dialing in light roasts',
    lang: 'en',
    sections: [
      {
        id: 'start',
        heading: 'Start finer',
        paragraphs: [
          'Light roasts keep the bergamot and stone fruit notes of a washed coffee, but they punish a ' +
            'coarse grind. Start two steps finer than your usual setting.',
          'A light roast is denser than a dark one: the beans spent less time in the drum, so their ' +
            'cell walls are still tight and water needs longer to pull sugars out of them. If the shot ' +
            'gushes in fifteen seconds and tastes like lemon juice, the grind is the first thing to move, ' +
            'long before the dose or the temperature.',
          'Stretch the ratio to one to two and a half, and give the shot thirty seconds. A longer ' +
            'ratio dilutes the body a little, but it lets the sweetness catch up with the acidity, and ' +
            'the cup stops tasting sharp at the edges.',
        ],
      },
      {
        id: 'temperature',
        heading: 'Temperature',
        paragraphs: [
          'Raise the brew temperature by two degrees to pull sweetness out of the dense bean. The Duo ' +
            'shows the boiler temperature on its display; change it in steps of one degree and pull two ' +
            'shots at each step before deciding, since the first shot after a change is never typical.',
          'Write down what you changed and how the cup tasted. After a week of notes most people find ' +
            'one setting they come back to for every light coffee they buy.',
        ],
      },
    ],
  },
  {
    path: '/blog/2025/latte-art.html',
    title: 'Latte art for beginners',
    lang: 'en',
    sections: [
      {
        id: 'rosetta',
        heading: 'Your first rosetta',
        paragraphs: [
          'A rosetta starts with a glossy pitcher and a steady wrist. Pour from high up to sink the milk ' +
            'under the crema, then bring the spout close and wiggle.',
          'The milk matters more than the hand. Steam it until the pitcher is just too hot to hold, ' +
            'tap it on the counter to burst the large bubbles and swirl it until the surface shines like ' +
            'wet paint. Milk that sits for a minute separates, so pour straight away.',
          'Hold the cup tilted towards the pitcher. When the cup is half full, lower the spout until it ' +
            'almost touches the surface, and the white will start to spread on the brown.',
        ],
      },
      {
        id: 'practice',
        heading: 'Practice without waste',
        paragraphs: [
          'Practise with water and a drop of soap before wasting milk. The soap holds bubbles the way ' +
            'steamed milk does, and a jug of it costs nothing, so you can pour twenty shapes in a morning.',
          'Film your pours with a phone from the side. Most beginners pour from too far away at the ' +
            'end; the video shows it at once.',
        ],
      },
    ],
  },
  {
    path: '/blog/2025/decaf.html',
    title: 'Why we stock a Swiss water decaf',
    lang: 'en',
    sections: [
      {
        id: 'process',
        heading: 'How it is made',
        paragraphs: [
          'Our decaf is processed without solvents: green beans soak in water saturated with coffee ' +
            'solubles until only the caffeine leaves them.',
          'The water used for the first batch is run through carbon filters that catch the caffeine ' +
            'molecules and let the flavour compounds pass. That water is used again and again, so it ' +
            'never pulls flavour out of the next beans, only caffeine.',
          'The whole process takes about ten hours and is checked in a laboratory until at least ' +
            'ninety-nine percent of the caffeine is gone.',
        ],
      },
      {
        id: 'taste',
        heading: 'How it tastes',
        paragraphs: [
          'The result keeps its body and caramel sweetness. Roast it a shade darker than the regular ' +
            'lot, since the soaking makes the beans brown faster, and grind a little coarser than for the ' +
            'house blend.',
          'Several of our customers drink it after dinner; a few did not notice when we swapped their ' +
            'afternoon cup for it.',
        ],
      },
    ],
  },
];

/** Japanese pages the glossary links to; each glossary term sits in its page's text. */
export const JAPANESE_PAGES: readonly ContentPage[] = [
  {
    path: '/ja/extraction.html',
    title: 'エスプレッソの抽出',
    lang: 'ja',
    sections: [
      {
        id: 'tamp',
        heading: '粉の詰め方',
        paragraphs: [
          '粉を均一にならしてからタンパーで水平に押し固めます。抽出の最初の数秒は低い圧力で湯を含ませる' +
            '蒸らしを行うと、粉全体に湯が行き渡り、味のむらが減ります。',
        ],
      },
      {
        id: 'time',
        heading: '抽出時間の目安',
        paragraphs: ['ダブルショットで二十五秒から三十秒が目安です。'],
      },
    ],
    glossary: [
      { term: '蒸らし', section: 'tamp', definition: '本抽出の前に低い圧力で粉に湯を含ませる工程。' },
      { term: 'タンパー', section: 'tamp', definition: '粉を押し固める道具。' },
    ],
  },
  {
    path: '/ja/milk.html',
    title: 'ミルクの泡立て',
    lang: 'ja',
    sections: [
      {
        id: 'wand',
        heading: '泡立ての手順',
        paragraphs: [
          'スチームワンドの先端をミルクの表面のすぐ下に沈め、空気を少しずつ含ませます。ピッチャーが' +
            '手で持てないほど熱くなる前に止めます。',
        ],
      },
    ],
    glossary: [
      { term: 'スチームワンド', section: 'wand', definition: '蒸気を出してミルクを温め泡立てる管。' },
      { term: 'ピッチャー', section: 'wand', definition: 'ミルクを泡立てる金属の容器。' },
    ],
  },
  {
    path: '/ja/care.html',
    title: '毎日のお手入れ',
    lang: 'ja',
    sections: [
      {
        id: 'backflush',
        heading: '一日の終わりに',
        paragraphs: [
          'ブラインドバスケットを装着し、洗浄剤を入れて逆洗浄を五回繰り返します。最後にシャワースクリーン' +
            'を布で拭きます。',
        ],
      },
      {
        id: 'scale',
        heading: '湯垢の除去',
        paragraphs: ['月に一度、クエン酸を溶かした水をタンクに入れて機械に通します。'],
      },
    ],
    glossary: [
      {
        term: '逆洗浄',
        section: 'backflush',
        definition: 'ブラインドバスケットで湯を逆流させグループヘッドを洗うこと。',
      },
      { term: '湯垢', section: 'scale', definition: 'ボイラーの内側にたまる水の成分。' },
    ],
  },
  {
    path: '/ja/beans.html',
    title: 'コーヒー豆の選び方',
    lang: 'ja',
    sections: [
      {
        id: 'roast',
        heading: '好みの味から選ぶ',
        paragraphs: [
          '焙煎度が浅い豆は酸味が明るく、深い豆は苦味とコクが強くなります。開封後は密閉容器に入れ、' +
            '二週間以内に使い切ります。',
        ],
      },
    ],
    glossary: [{ term: '焙煎度', section: 'roast', definition: '豆をどれだけ深く煎ったかの度合い。' }],
  },
];

export const CONTENT_PAGES: readonly ContentPage[] = [...MANUAL_PAGES, ...ARTICLES, ...JAPANESE_PAGES];
