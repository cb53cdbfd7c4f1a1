// Chinese (simplified, the default when the browser asks for zh), Traditional Chinese
// (zh-Hant, for Taiwan: the simplified texts converted at render through hant.js, which
// scripts/gen_hant.py generates) and English.
// t(key, params) looks a string up; "{name}" in it is replaced by params.name.
import { CHARS, PHRASES } from "./hant.js";

const KEY = "laizi.lang";
/** @typedef {"zh" | "zh-Hant" | "en"} Choice */
/** The languages a person may choose, in the order the switch offers them. */
export const CHOICES = /** @type {Choice[]} */ (["zh", "zh-Hant", "en"]);
const HTML_LANG = { zh: "zh-CN", "zh-Hant": "zh-Hant-TW", en: "en" };
/** @type {Choice} */
let choice = (() => {
  const saved = localStorage.getItem(KEY);
  if (saved === "zh" || saved === "zh-Hant" || saved === "en") return saved;
  const asked = ((navigator.languages && navigator.languages[0]) || navigator.language || "").toLowerCase();
  if (/^zh-(tw|hk|mo|hant)/.test(asked)) return "zh-Hant";
  return asked.startsWith("zh") ? "zh" : "en";
})();
// The language texts are looked up in: "zh" for both scripts (the server's texts and
// every [zh, en] pair are simplified; traditional is a conversion of them).
let lang = choice === "en" ? "en" : "zh";
const listeners = new Set();

/** @returns {"zh" | "en"} */
export function getLang() { return /** @type {"zh" | "en"} */ (lang); }
/** The person's choice: zh, zh-Hant or en. */
export function getChoice() { return choice; }
/** @param {string} l */
export function setLang(l) {
  choice = l === "zh-Hant" || l === "en" ? l : "zh";
  lang = choice === "en" ? "en" : "zh";
  localStorage.setItem(KEY, choice);
  document.documentElement.lang = HTML_LANG[choice];
  for (const f of listeners) f(lang);
}
export function onLang(f) { listeners.add(f); return () => listeners.delete(f); }
document.documentElement.lang = HTML_LANG[choice];

// Simplified → traditional: the longest phrase of hant.js at each place, else the character.
const HANT_RE = new RegExp(
  [...Object.keys(PHRASES).sort((a, b) => b.length - a.length), "[\\u3400-\\u9fff]"].join("|"), "gu");
/** @param {string} s */
export function toHant(s) { return s.replace(HANT_RE, (m) => PHRASES[m] || CHARS[m] || m); }
/** A Chinese text (simplified) as the person reads it: converted when they chose 繁體. */
/** @param {string} s */
export function zh(s) { return choice === "zh-Hant" && typeof s === "string" ? toHant(s) : s; }
/** The text of a [zh, en] pair in the person's language. */
/** @param {readonly any[]} pair */
export function pick(pair) { return lang === "zh" ? zh(pair[0]) : pair[1]; }

const S = {
  // general
  app: ["laizi 麻将", "laizi mahjong"],
  lang_switch: ["语言 · Language", "Language · 语言"],
  display_large: ["大字模式", "Large tiles"],
  display_btn: ["大字", "A+"],
  loading: ["加载中…", "Loading…"],
  error: ["出错了", "Something went wrong"],
  close: ["关闭", "Close"],
  back_lobby: ["大厅", "Lobby"],
  copy: ["复制", "Copy"],
  copied: ["已复制", "Copied"],
  yes: ["是", "Yes"], no: ["否", "No"],
  none: ["无", "none"],
  seat_n: ["{n}号位", "seat {n}"],
  you: ["你", "You"],
  // lobby
  lobby_title: ["荆州麻将 · 晃晃 · 黄金麻将 · 台湾十六张 · 国标", "Jingzhou · Huanghuang · Golden · Taiwan 16 · MCR"],
  your_name: ["你的名字", "Your name"],
  name_needed: ["请先填写名字", "Please enter your name first"],
  create_room: ["开房间", "Create a room"],
  variant: ["玩法", "Game"],
  options: ["规则选项", "House rules"],
  bots: ["电脑强度", "Bots"],
  clock: ["每步限时", "Clock per decision"],
  clock_none: ["不限时", "no clock"],
  seconds: ["{n} 秒", "{n} s"],
  hands: ["局数", "Hands"],
  hands_default: ["默认", "default"],
  advanced: ["更多设置", "More settings"],
  claim_min: ["吃碰最短等待 (秒)", "Shortest claim window (s)"],
  bot_delay: ["电脑出牌停顿 (秒)", "Bot pause on its turn (s)"],
  between: ["局间休息 (秒)", "Pause between hands (s)"],
  room_name: ["房间名", "Room name"],
  create: ["开房", "Create"],
  join_room: ["进房间", "Join a room"],
  room_code: ["房间号", "Room code"],
  as_player: ["上桌打牌", "Play"],
  as_spectator: ["旁观", "Watch"],
  join: ["进入", "Join"],
  my_rooms: ["我的房间", "My rooms"],
  history: ["我的战绩", "My history"],
  history_empty: ["还没有战绩", "No matches yet"],
  show_history: ["查看战绩", "Show history"],
  st_hands: ["局数", "Hands"], st_wins: ["和牌", "Wins"], st_dealt_in: ["点炮", "Dealt in"],
  st_average: ["平均分", "Average"], st_biggest: ["最大一把", "Biggest win"],
  account: ["账号", "Account"],
  acct_who: ["这台设备是「{name}」（{devices} 台设备）", "This device is “{name}” ({devices} device(s))"],
  acct_hint: ["不用邮箱和手机号：身份存在这台设备上。换手机前请记下恢复码。", "No e-mail, no phone number: your identity lives on this device. Write down a recovery code before you change phones."],
  acct_show_code: ["记下恢复码", "Show a recovery code"],
  acct_code_once: ["只显示这一次，请抄下来或拍照保存；谁有它就能登录你的身份。再点一次会换新码，旧码作废。", "Shown this once: write it down. Whoever has it can take your identity. Asking again makes a new code and the old one stops working."],
  acct_add_device: ["添加设备", "Add another device"],
  acct_devices: ["管理设备", "Devices"],
  acct_this_device: ["本机", "This device"],
  acct_other_device: ["另一台设备", "Another device"],
  acct_added: ["{date} 添加", "added {date}"],
  acct_drop: ["移除", "Remove"],
  acct_drop_confirm: ["移除这台设备？它以后就不能再用你的身份了（丢了的手机就这样处理）。", "Remove that device? It can no longer use your identity (do this for a lost phone)."],
  acct_dropped: ["已移除那台设备", "That device is removed"],
  acct_qr: ["用另一台设备扫这个二维码", "Scan this with the other device"],
  acct_link_hint: ["用另一台设备扫码或打开链接，{min} 分钟内有效，只能用一次。", "Scan it or open the link on the other device: valid for {min} minutes, once."],
  acct_copy_link: ["复制链接", "Copy the link"],
  acct_restore: ["用恢复码恢复", "Restore with a recovery code"],
  acct_restore_hint: ["恢复后这台设备换成那个身份（现在的身份如果没有记下恢复码就找不回了）。", "This device then becomes that identity (its present one is lost unless you wrote down its code)."],
  acct_restore_btn: ["恢复", "Restore"],
  acct_restored: ["已恢复：这台设备现在是你的身份", "Restored: this device is you now"],
  acct_link_take: ["在这台设备上使用另一台设备的身份？", "Use the other device's identity on this device?"],
  acct_link_btn: ["在这台设备上使用", "Use it here"],
  acct_linked: ["好了：这台设备已加入你的身份", "Done: this device is now yours too"],
  // clubs (亲友圈; club.js)
  clubs: ["我的亲友圈", "My clubs"],
  club_title: ["亲友圈", "Club"],
  clubs_hint: ["固定牌友的圈子：成员、管理员、常用规则、只许成员进的房间和一本谁都能核对的积分账。", "The people you play with every week: members, managers, house rules, rooms for members only and a points ledger anyone can check."],
  club_name: ["亲友圈名字", "Club name"],
  club_create: ["建圈", "Create a club"],
  club_manager: ["管理员", "manager"],
  club_member: ["成员", "member"],
  club_invited: ["你被邀请加入这个亲友圈。申请后由管理员同意。", "You are invited to this club. A manager approves your request."],
  club_ask: ["申请加入", "Ask to join"],
  club_requested: ["已申请，等管理员同意…", "Asked: waiting for a manager to approve…"],
  club_open: ["进入亲友圈", "Open the club"],
  club_invite: ["邀请牌友", "Invite"],
  club_invite_hint: ["扫码或打开链接申请加入；管理员同意后才成为成员。", "Scan or open the link to ask to join; a manager approves."],
  club_requests: ["入圈申请", "Join requests"],
  club_approve: ["同意", "Approve"],
  club_deny: ["拒绝", "Deny"],
  club_members: ["成员", "Members"],
  club_online: ["{n}/{all} 在线", "{n}/{all} online"],
  club_is_online: ["在线", "online"],
  club_make: ["设为管理员", "Make manager"],
  club_unmake: ["取消管理员", "Unmake manager"],
  club_remove: ["移出", "Remove"],
  club_remove_q: ["把「{name}」移出亲友圈？", "Remove “{name}” from the club?"],
  club_rooms: ["正在打的房间", "Live rooms"],
  club_no_rooms: ["现在没有房间", "No room right now"],
  club_new_room: ["开圈内房间", "Open a club room"],
  club_others: ["电脑", "Bots"],
  club_ledger: ["积分账", "Points ledger"],
  club_total: ["总计", "Total"],
  club_hands: ["{n} 局", "{n} hands"],
  club_verified: ["账本已核对：{n} 笔，每笔都与牌局记录相符", "Ledger checked: {n} entries, each the hand its log settles"],
  club_not_verified: ["账本核对失败：{msg}", "The ledger does not check: {msg}"],
  club_csv: ["导出 CSV", "Export CSV"],
  club_ledger_hint: ["只记积分，不涉及钱。每笔带上一笔和牌局记录的哈希，可用 laizi verify-ledger 自己核对。", "Points only, no money. Each entry carries the hash of the one before and of its hand's log: check it yourself with laizi verify-ledger."],
  club_sessions: ["线下记分", "Score-keeping at a real table"],
  club_no_sessions: ["还没有线下记分", "No score-keeping session yet"],
  club_new_session: ["开一场线下记分", "Keep score at a real table"],
  club_session_open: ["进行中 · {n} 局", "open · {n} hands"],
  club_session_closed: ["已记入账本 · {n} 局", "in the ledger · {n} hands"],
  club_sessions_hint: ["用真牌打也能进积分账：记完一晚，在记分页点「结束并记入账本」。", "Real-tile evenings count too: when the evening is over, tap “Close and add to the club ledger” on the score page."],
  club_ratings: ["等级分", "Ratings"],
  club_rating: ["等级分", "Rating"],
  club_matches: ["场数", "Matches"],
  club_no_ratings: ["打完一场三人或四人局后才有", "After a finished 3- or 4-player match"],
  club_ratings_hint: ["按每场输赢排名计算 (openskill)，每种玩法分开。", "From each match's ranking (openskill), per game."],
  club_default: ["常用玩法：{variant}", "House game: {variant}"],
  club_leave: ["退出亲友圈", "Leave the club"],
  club_rules: ["常用玩法和规则", "House game and rules"],
  club_save: ["保存", "Save"],
  club_saved: ["已保存", "Saved"],
  club_leave_q: ["确定退出这个亲友圈？", "Leave this club?"],
  score_keeper: ["记分器 (线下牌桌)", "Score-keeper (real table)"],
  score_keeper_hint: ["用真牌打? 每局点一下，马上算出谁付谁。", "Playing with real tiles? Tap in each hand and see who pays whom."],
  replay: ["回放", "Replay"],
  status_open: ["未开始", "not started"], status_playing: ["进行中", "playing"], status_over: ["已结束", "over"],
  score: ["得分", "score"],
  opt_true: ["开", "on"], opt_false: ["关", "off"],
  // table
  room: ["房间", "Room"],
  hand_no: ["第 {n} 局", "Hand {n}"],
  hand: ["牌局", "Hand"],
  wall: ["余 {n}", "wall {n}"],
  wall_long: ["牌墙剩 {n} 张", "{n} tiles left in the wall"],
  dealer: ["庄", "dealer"],
  dealer_long: ["庄家", "dealer"],
  prevalent: ["{w}风圈", "{w} round"],
  streak: ["连{n}", "streak {n}"],
  winds: [["东", "南", "西", "北"], ["E", "S", "W", "N"]],
  winds_long: [["东", "南", "西", "北"], ["East", "South", "West", "North"]],
  concealed_n: ["{n} 张", "{n} tiles"],
  flowers: ["花", "flowers"],
  melds: ["副露", "melds"],
  discards: ["牌河", "discards"],
  my_turn: ["轮到你出牌：点一张牌打出", "Your turn: tap a tile to discard it"],
  waiting_for: ["等待 {name}", "Waiting for {name}"],
  claim_prompt: ["{name} 打出", "{name} discards"],
  rob_prompt: ["{name} 补杠", "{name} adds a kong with"],
  decide_prompt: ["请选择", "Your decision"],
  decide_heavenly: ["天听：发牌后听牌的闲家可以宣告 (宣告后不能换牌)", "天听: a non-dealer dealt a ready hand may declare it (the hand is then locked)"],
  decide_rob_flower: ["七抢一：抢 {name} 的第八张花？", "七抢一: rob {name}'s eighth flower?"],
  passed_win: ["过水：下次摸牌前不能胡别人打的牌", "过水: you cannot win on a discard until your next draw"],
  auto: ["托管中：电脑替你出牌", "托管: a bot is playing for you"],
  im_back: ["我回来了", "I'm back"],
  offline: ["离线", "offline"],
  auto_short: ["托管", "auto"],
  host_controls: ["房主", "Host"],
  kicked_seat: ["已移出 · 电脑代打到本局结束", "removed · a bot plays to the hand's end"],
  kick: ["踢出", "Kick"],
  kick_confirm: ["把 {name} 踢出房间？电脑接手 TA 的座位，TA 不能再回到这个房间。", "Remove {name} from the room? A bot takes their seat, and they cannot come back to this room."],
  make_host: ["转让房主", "Make host"],
  make_host_confirm: ["把房主转让给 {name}？你将不再是房主。", "Make {name} the host? You will no longer be the host."],
  lock_room: ["锁定房间", "Lock the room"],
  lock_hint: ["锁定后新的人不能加入或旁观，房间里的人不受影响", "Once locked, nobody new may join or watch; the people in the room are not affected"],
  locked: ["已锁定", "Locked"],
  members: ["房间里的人", "People in the room"],
  kicked_title: ["你已被移出房间", "You were removed from the room"],
  kicked_page: ["房主把你移出了这个房间，电脑接手了你的座位。你不能再回到这个房间。", "The host removed you from this room, and a bot took your seat. You cannot come back to this room."],
  start: ["开始", "Start"],
  pause: ["暂停", "Pause"],
  resume: ["继续", "Resume"],
  end_match: ["结束牌局", "End the match"],
  end_confirm: ["确定结束这场牌局？", "End the match now?"],
  paused: ["已暂停", "Paused"],
  idle: ["等人回来：没有玩家在线，下一手暂停", "Waiting for players to come back: nobody is online, the next hand waits"],
  pause_empty: ["没人时暂停", "Pause when nobody is here"],
  pause_empty_hint: ["没有玩家在线时不发下一手，账不动", "No new hand while no player is online; the ledger stays"],
  hints_option: ["听牌提示", "Ready hints (听牌提示)"],
  hints_option_hint: ["出牌时标出能听牌的牌，显示听哪几张、还剩几张、胡了赢多少；正式比赛可关闭", "On your turn, mark the discards that leave you ready, with the waits, the copies left and what each win pays; turn it off for serious play"],
  hints: ["听牌提示", "Ready hints"],
  hints_discard: ["打这张听牌：", "Discard to be ready:"],
  hints_ready: ["听牌：", "Ready, waiting on:"],
  hint_if: ["打{tile}听", "Discard {tile}, wait on"],
  hint_left: ["剩{n}张", "{n} left"],
  hint_total: ["共剩{n}张", "{n} left in all"],
  hint_asking: ["正在算听哪几张…", "Working out the waits…"],
  hint_self_draw: ["自摸", "self-draw"],
  hint_self_draw_long: ["自己摸到这张胡牌，你赢的分数", "What you win drawing it yourself"],
  hint_on_discard: ["点炮", "on a discard"],
  hint_on_discard_long: ["别人打出这张你胡牌，你赢的分数（按放炮的人，最少~最多）", "What you win on another player's discard of it (least ~ most, by who discards)"],
  not_started: ["等待房主开始", "Waiting for the host to start"],
  not_started_host: ["人齐了就点「开始」，空位由电脑补上", "Press Start when everyone is here; bots fill the empty seats"],
  match_over: ["牌局结束", "The match is over"],
  dismiss: ["申请解散", "Propose to end"],
  dismiss_vote: ["解散投票：{agree} 同意 · 剩 {s} 秒", "Vote to end: {agree} agree · {s} s left"],
  agree: ["同意", "Agree"],
  refuse: ["拒绝", "Refuse"],
  ready: ["准备", "Ready"],
  ready_done: ["已准备", "Ready ✓"],
  next_hand: ["下一局", "Next hand"],
  waiting_list: ["等待上桌", "Waiting"],
  spectators: ["旁观", "Watching"],
  buy_horse: ["买马", "Buy a horse (买马)"],
  horse_on: ["买马：是", "Horse: yes"],
  horse_off: ["买马：否", "Horse: no"],
  sit: ["入座", "Take a seat"],
  share: ["邀请朋友", "Invite friends"],
  share_hint: ["把这个链接发给朋友：", "Send this link to your friends:"],
  my_link: ["你自己的回桌链接 (别发给别人)：", "Your own link to come back (keep it to yourself):"],
  share_sheet: ["分享…", "Share…"],
  share_text: ["来打{variant}：房间 {code}", "Come and play {variant}: room {code}"],
  qr_alt: ["房间链接的二维码：用手机扫一扫", "QR code of the room's link: scan it with a phone"],
  copy_manual: ["没能自动复制：链接已选中，长按复制", "Could not copy: the link is selected, copy it by hand"],
  share_local_only: ["这个大厅只在本机监听，别的手机打不开：用 laizi serve --host 0.0.0.0 启动", "This hall listens on this machine only, phones cannot open it: start it with laizi serve --host 0.0.0.0"],
  queue_front: ["等座第 1 位：有人下桌，你就上桌", "First in the queue: you sit down when someone leaves the table (下桌)"],
  queue_place: ["等座第 {n} 位：有人下桌时按排队顺序上桌，你前面还有 {ahead} 人", "Number {n} in the queue ({ahead} ahead of you): the queue sits down in order when people leave the table (下桌)"],
  your_horse: ["你上一手的马", "Your horse last hand"],
  horse_landed: ["→ {seat}", "→ {seat}"],
  horse_collects: ["买马：{buyer}的马 {tile} 落在 {seat} → 随 {seat} 收 {payer} 的 {amount}", "Horse (买马): {buyer}'s horse {tile} landed on {seat} → collects {amount} from {payer}, as {seat} does"],
  horse_pays: ["买马：{buyer}的马 {tile} 落在 {seat} → 随 {seat} 付 {payee} {amount}", "Horse (买马): {buyer}'s horse {tile} landed on {seat} → pays {payee} {amount}, as {seat} does"],
  no_horse_yet: ["马在这手结束时开", "Horses are drawn at the end of the hand"],
  horse_change: ["改成买马", "Buy a horse"],
  horse_stop: ["不买马", "Stop buying"],
  my_discards: ["你打出的牌", "Your discards"],
  why_special: ["{tile}不能打：只能{action}（点下面的「{action}」）", "{tile} cannot be discarded: play it as {action} (the button below)"],
  why_locked: ["听牌后手牌锁定：只能打摸到的牌或胡", "Your hand is locked after declaring: discard the tile you drew, or win"],
  why_declaring: ["地听：打出的牌要保持听牌", "地听: the discard must keep the hand ready"],
  why_wild: ["{tile}是{wild}，不能打", "{tile} is the {wild}: it cannot be discarded"],
  why_other: ["{tile}现在不能打", "{tile} cannot be discarded now"],
  ledger: ["账本", "Ledger"],
  log: ["牌局记录", "Log"],
  total: ["合计", "Total"],
  connecting: ["连接中…", "Connecting…"],
  reconnecting: ["重新连接中…", "Reconnecting…"],
  gone: ["连接失败：{msg}", "Cannot connect: {msg}"],
  spectating: ["旁观中", "Watching"],
  join_this: ["加入这个房间", "Join this room"],
  keys_hint: ["键盘：←→ 选牌，Enter 打出，空格 过", "Keys: ←→ pick a tile, Enter discards, Space passes"],
  settlement: ["结算", "Settlement"],
  hand_of: ["{name} 的牌", "{name}'s hand"],
  wins_on: ["{who} 胡 {tile}", "{who} wins on {tile}"],
  draw_game: ["黄庄：牌摸完了，没人胡，不算钱", "Drawn hand (黄庄): nobody won, no payments"],
  wrong_win_game: ["{who} 错和：报了胡却不成胡", "{who}: wrong win (错和), declared 胡 without a winning hand"],
  pays: ["{a} 付 {b}", "{a} pays {b}"],
  net: ["本局输赢", "Net this hand"],
  horses: ["马", "Horses"],
  left_table: ["下桌", "leaves the table"],
  entered_table: ["上桌", "sits down"],
  winning_tile: ["胡的牌", "winning tile"],
  after_kong: ["杠开", "after a kong"],
  how_self_draw: ["自摸", "self-drawn"],
  how_discard: ["点炮", "on a discard"],
  how_robbed_kong: ["抢杠", "robbing a kong"],
  from_seat: ["{name} 点炮", "dealt in by {name}"],
  robbed_from: ["抢 {name} 的杠", "robbing {name}'s kong"],
  rel_next: ["下家", "next"], rel_prev: ["上家", "previous"], rel_across: ["对家", "across"],
  ev_discard: ["{who} 打 {tile}", "{who}: discard {tile}"],
  ev_draw: ["{who} 摸 {tile}", "{who}: draw {tile}"],
  ev_draw_hidden: ["{who} 摸牌", "{who}: draw"],
  ev_replacement: ["{who} 补牌 {tile}", "{who}: replacement draw {tile}"],
  ev_claim: ["{who} {kind} {tiles}", "{who}: {kind} {tiles}"],
  ev_flower: ["{who} 补花 {tile}", "{who}: flower {tile}"],
  ev_indicator: ["翻出 {tile}，{name} {wild}", "Indicator {tile}; {name} {wild}"],
  ev_hand: ["第 {n} 局开始，{dealer} 坐庄", "Hand {n}: {dealer} deals"],
  ev_win: ["{who} 胡了！", "{who}: win!"],
  ev_draw_end: ["黄庄", "Drawn hand (黄庄)"],
  ev_wrong_win_end: ["{who} 错和", "{who}: wrong win (错和)"],
  ev_join: ["{who} 进来了", "{who} joins"],
  ev_leave: ["{who} 离开了", "{who} leaves"],
  ev_declare: ["{who} 听牌 ({kind})", "{who}: {kind}"],
  ev_action: ["{who} {act}", "{who}: {act}"],
  ev_close: ["牌局结束", "The match is over"],
  // replay
  replay_title: ["回放 · 房间 {code}", "Replay · room {code}"],
  replay_hand: ["这局回放", "Replay this hand"],
  ledger_tap: ["点一局看它的结算和回放", "Tap a hand for its settlement and replay"],
  replay_in_progress: ["这一局还没打完，打完就能回放。", "This hand is still being played: its replay opens once it ends."],
  replay_no_hand: ["还没有这一局。", "There is no such hand yet."],
  deal_check: ["牌墙校验", "Checking the wall"],
  deal_check_text: ["这局的牌墙 = shuffle(排好序的牌, 本局密钥)。密钥 = HMAC-SHA256(桌面秘密, 局号 + 熵)；桌面秘密在牌局结束时公布，可核对每局的密钥 (见 docs/deals.md)。", "This hand's wall = shuffle(the sorted tiles, this hand's key). The key = HMAC-SHA256(table secret, hand number + entropy); the secret is revealed when the match ends and confirms every hand's key (docs/deals.md)."],
  deal_key: ["本局密钥", "Hand key"],
  view_from: ["视角", "View"],
  all_open: ["全部明牌", "All hands open"],
  step: ["第 {i} / {n} 步", "Step {i} / {n}"],
  first: ["开头", "First"], prev: ["上一步", "Back"], next: ["下一步", "Forward"], last: ["结尾", "Last"],
  play: ["播放", "Play"], stop: ["停", "Stop"],
  no_hands: ["没有打完的牌局", "No finished hand"],
  // score-keeper
  sk_title: ["记分器", "Score-keeper"],
  sk_intro: ["线下打牌时用：选好玩法和人，每局点入胡牌的手牌，马上看到谁付谁多少。", "For a real table: pick the game and the players, tap in each winning hand and see at once who pays whom."],
  sk_names: ["四位 (三位) 牌友", "Players"],
  sk_start: ["开始记分", "Start keeping score"],
  sk_new: ["新的记分", "New session"],
  sk_hand: ["第 {n} 局", "Hand {n}"],
  sk_outcome: ["结果", "Outcome"],
  sk_win: ["有人胡", "A win"],
  sk_draw: ["黄庄", "Drawn (黄庄)"],
  sk_winner: ["谁胡了", "Winner"],
  sk_how: ["怎么胡的", "How"],
  sk_from: ["谁点炮", "Who dealt in"],
  sk_from_rob: ["抢谁的杠", "Whose kong was robbed"],
  sk_indicator: ["翻牌 (赖子皮)", "Indicator"],
  sk_wildcard_is: ["赖子是 {tile}", "The wildcard is {tile}"],
  sk_concealed: ["手牌 (不含胡的那张)", "Concealed tiles (without the winning tile)"],
  sk_win_tile: ["胡的那张", "The winning tile"],
  sk_add_meld: ["加一副", "Add a meld"],
  sk_meld_kind: ["种类", "Kind"],
  sk_meld_from: ["吃/碰/杠 了谁的", "Claimed from"],
  sk_pick_tile: ["点牌键盘选牌", "Pick a tile on the keyboard"],
  sk_tap_remove: ["点一下去掉", "tap to remove"],
  sk_remove: ["删除", "Remove"],
  sk_settle_now: ["结算预览", "Settlement"],
  sk_record: ["记入账本", "Add to the ledger"],
  sk_undo: ["撤销上一局", "Undo the last hand"],
  sk_export: ["导出 JSON", "Export JSON"],
  sk_incomplete: ["还差：{what}", "Still needed: {what}"],
  sk_invalid: ["这手牌不成立：{msg}", "This hand cannot be: {msg}"],
  sk_tiles_count: ["{n} / {want} 张", "{n} / {want} tiles"],
  sk_facts: ["其他情况", "Other facts"],
  sk_clear: ["清空这一局", "Clear this hand"],
  sk_ledger_empty: ["还没有记过", "No hand yet"],
  sk_flowers: ["花牌", "Flowers"],
  sk_target: ["正在输入：", "Typing into:"],
  sk_done: ["完成", "Done"],
  sk_edit: ["修改", "Edit"],
  sk_session: ["记分 {id}", "Session {id}"],
  f_heavenly: ["天听", "天听 heavenly"],
  f_earthly: ["地听", "地听 earthly"],
  sk_offline: ["离线：这一局先记下，联网后再结算", "Offline: this hand is kept and settled when back online"],
  sk_offline_start: ["离线时不能开始新的记分（需要联网一次）", "A new session needs the network (once)"],
  sk_queue: ["先记下（联网后结算）", "Keep it (settle when online)"],
  sk_pending: ["待结算", "Pending"],
  sk_pending_win: ["{name} 胡", "{name} won"],
  sk_pending_note: ["离线记下的，联网后自动结算入账", "Kept offline; settled and added when back online"],
  sk_pending_refused: ["没能入账：{msg}", "Not added: {msg}"],
  // the score-keeper on every phone (static/js/scoreshare.js)
  sk_members: ["一起记分：{names}", "Keeping score: {names}"],
  sk_share: ["邀请牌友一起记（二维码）", "Invite the table (QR code)"],
  sk_share_hint: ["牌友扫码或打开链接就加入了：每部手机都能记一局，账本在每部手机上同步更新", "Scan it or open the link to join: every phone may enter a hand, and every phone shows the ledger as it changes"],
  sk_copy_link: ["复制链接", "Copy the link"],
  sk_hide_link: ["收起", "Hide"],
  sk_qr: ["加入这场记分的二维码", "QR code to join this session"],
  sk_joined: ["已加入这场记分，可以一起记了", "You joined this session: you may enter hands"],
  sk_viewer: ["你在看这场记分的账本。要一起记，请扫在场手机上的二维码加入。", "You are watching this session's ledger. To enter hands, scan the QR code on a phone at the table."],
  sk_club: ["亲友圈的记分：结束时每一局都记入圈内积分账", "A club's session: when it is closed every hand goes into the club's ledger"],
  sk_close: ["结束并记入账本", "Close and add to the club ledger"],
  sk_close_q: ["结束这场记分？{n} 局都记入亲友圈积分账，之后不能再改。", "Close this session? Its {n} hands go into the club's ledger, and it no longer changes."],
  sk_close_members: ["计入成员：{names}", "Counted for the members: {names}"],
  sk_closed: ["这场记分已结束，{n} 局已记入亲友圈积分账。", "This session is closed: its {n} hands are in the club's ledger."],
  sk_closed_plain: ["这场记分已结束，不能再改。", "This session is closed: it no longer changes."],
  sk_club_ledger: ["看亲友圈积分账", "Open the club's ledger"],
  sk_conflict: ["另一部手机刚改了账本，已刷新：请看一下再记", "Another phone just changed the ledger; it is refreshed: look before adding"],
  // the device (static/js/device.js)
  this_device: ["本机设置", "This device"],
  install_app: ["安装到手机桌面", "Install as an app"],
  notice_on: ["轮到我时通知我", "Notify me when it is my turn"],
  notice_off: ["已开启通知 · 点此关闭", "Notices on · tap to turn off"],
  notice_hint: ["页面在后台时，开局和轮到你都会提醒（只在本机记住）", "When this page is in the background: a notice when the match starts and on your turn (remembered on this device)"],
  notice_denied: ["浏览器已禁止本站通知（可在浏览器设置里打开）", "The browser blocks notices from this site (its settings can allow them)"],
  notice_unavailable: ["这个浏览器或地址不能发通知（需要 https）", "No notices in this browser or at this address (https is needed)"],
  notice_turn: ["轮到你了 · 房间 {code}", "Your turn · room {code}"],
  notice_start: ["牌局开始了 · 房间 {code}", "The match is starting · room {code}"],
  indicator: ["赖子皮", "indicator"], wildcard: ["赖子", "laizi (wildcard)"],
  // errors
  err_stale_version: ["慢了一步：桌面已经变了", "Too late: the table has moved on"],
  err_illegal: ["不能这样出：{msg}", "Not allowed: {msg}"],
  err_not_host: ["只有房主可以这样做", "Only the host may do that"],
  err_paused: ["牌局已暂停", "The match is paused"],
  err_unknown_room: ["没有这个房间", "There is no such room"],
  err_unknown_token: ["这个链接的座位不在这个房间", "This link's seat is not in this room"],
  err_too_large: ["内容太长了，大厅不收", "Too long: the hall does not take that much"],
  err_rate_limited: ["太快了，请稍后再试", "Too many at once: try again a little later"],
  err_forbidden_origin: ["这个网页不是牌馆自己的，不能在这里操作", "This page is not the hall's own: it may not act here"],
  err_not_json: ["请求格式不对（须为 JSON）", "The request must be JSON"],
  err_banned: ["牌馆管理员已禁止这个名字或地址", "The hall's operator has banned this name or address"],
  err_not_admin: ["需要管理员口令", "The admin token is needed"],
  err_kicked: ["房主已把你移出这个房间", "The host removed you from this room"],
  err_room_locked: ["房主已锁定这个房间，新的人不能加入", "The host has locked this room: nobody new may join"],
  err_score_members_only: ["只有加入这场记分的人才能记（请扫码加入）", "Only those who joined this session may enter hands (scan its QR code to join)"],
  err_session_closed: ["这场记分已结束并记入账本，不能再改", "This session is closed (its hands are in the ledger): it no longer changes"],
  err_unknown_club: ["没有这个亲友圈（或邀请已失效）", "No such club (or the invite has been replaced)"],
  err_not_club_member: ["只有亲友圈的成员可以看", "For the club's members only"],
  err_not_club_manager: ["只有管理员可以这样做", "Only a manager may do that"],
  err_members_only: ["这是亲友圈的房间，只有圈内成员可以进", "This room is for its club's members only"],
  err_unknown_person: ["牌馆不认识这个身份、恢复码或链接（可能已过期或用过）", "The hall does not know this identity, code or link (it may be expired or used)"],
};

export function t(key, params) {
  const entry = S[key];
  if (entry === undefined) return key;
  let s = lang === "zh" ? hantOf(entry[0]) : entry[1];
  if (params && typeof s === "string") {
    s = s.replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined ? m : String(params[k])));
  }
  return s;
}
export function has(key) { return key in S; }
// An entry's Chinese, converted (an entry may be a list of words: the winds).
function hantOf(v) { return Array.isArray(v) ? v.map(zh) : zh(v); }

// A settlement reason or a refusal (its JSON form carries both texts, and its parts: the
// text cut where it names a seat). seatName(n), when given, writes the person of seat n.
export function reasonText(r, seatName) {
  const parts = r.parts && r.parts[lang];
  if (seatName && Array.isArray(parts)) {
    return parts.map((p) => (typeof p === "string" ? zh(p) : seatName(p.seat))).join("");
  }
  const text = (lang === "zh" ? r.zh : r.en) || r.zh || r.code;
  // A text without its parts names seats by their 0-based number (0号位 / seat 0): the
  // person is written there (or, without seatName, the seat counted from 1), never it.
  const name = seatName || ((s) => t("seat_n", { n: s + 1 }));
  return zh(String(text)).replace(/(\d+)[号號]位|\bseat (\d+)/g, (_, z, en) => name(Number(z ?? en)));
}

// Variant names: the server's name is Chinese; English here.
const VARIANTS_EN = {
  jingzhou: "Jingzhou (red dragon & laizi kongs)",
  huanghuang: "Jingzhou Huanghuang (晃晃)",
  golden: "Golden / laizi mahjong (黄金麻将)",
  mcr: "Chinese Official (MCR, 国标)",
  taiwan: "Taiwan 16-tile (台湾十六张)",
};
const VARIANTS_ZH = {
  jingzhou: "荆州麻将 · 红中赖子杠",
  huanghuang: "荆州晃晃",
  golden: "赖子麻将 · 黄金麻将",
  mcr: "国标麻将",
  taiwan: "台湾十六张",
};
export function variantName(id, zhName) {
  return lang === "zh" ? zh(VARIANTS_ZH[id] || zhName || id) : (VARIANTS_EN[id] || id);
}

// Option labels (house rules); an option without one shows its key.
const OPTIONS = {
  kou_kou_fan: ["口口翻：每副明牌都翻倍", "口口翻: every open meld doubles"],
  reserve: ["留牌 (黄庄)", "Tiles kept back (draw at)"],
  cap: ["封顶", "Cap (封顶)"],
  gold: ["金顶", "Golden cap (金顶)"],
  base: ["底分", "Base (底)"],
  minimum: ["起和番数", "Minimum fan"],
  priority: ["一炮多响时谁胡", "Several winners on one discard"],
  prevalent_wind: ["圈风", "Prevalent wind"],
  profile: ["规则版本", "Rules profile"],
  tai_value: ["台值", "Value of one 台"],
  eight_pairs: ["八对半 (呖咕呖咕)", "Eight pairs (八对半)"],
  last_discard: ["河底捞鱼", "Last discard (河底)"],
  flower_replacement_bloom: ["补花自摸算杠上开花", "Flower replacement counts as 杠上开花"],
};
export function optionLabel(key) {
  const o = OPTIONS[key];
  return o ? pick(o) : key;
}
