"""The solver's hot core, in the subset of Python that numba compiles.

Every function here runs as plain Python (lists or numpy arrays for the
tables) and, unchanged, as numba-compiled code: ``solver._build`` clones these
functions, together with the engine's own ``tricks.legal_mask`` and
``tricks.beats``, into one namespace and wraps each with the jit it is given,
exactly as ``engine/kernel.py`` does, so the compiled and the interpreted
solver cannot drift from each other or from the rules.

The search is described in ``solver``'s docstring.  Conventions here:

* a *certificate* (``rel``) packs, per suit (4 bits each), the lowest rank
  whose order the answer relied on; every live card of that suit at or above
  it is relevant, everything below is interchangeable.  ``NO_RANKS`` relies
  on none.  ``search`` returns ``certificate << 1 | answer`` (-1 when it ran
  out of nodes).
* ``tables`` is one flat int64 array, shared by the threads of a search:
  settings, then the transposition table, its directory and its filter
  (layout below); ``moves`` is each thread's own: the move buffers of the
  plies, its node count and its move-ordering history.
"""

from __future__ import annotations

from typing import Any

from callbreak.cards import DECK_SIZE, RANK_COUNT, SUIT_MASKS
from callbreak.engine.tricks import NEVER, beats, legal_mask

PLAYERS = 4
MAX_DEPTH = DECK_SIZE + 4
"""Plies a search can go below its root (cards left, plus slack), for the move buffers."""
MOVE_SLOTS = 16
"""Move-buffer width per ply: a hand never holds more than 13 cards."""
CODE_AT = 2 * MOVE_SLOTS
"""Where a ply's block of the move buffer keeps the position code of a trick start."""
DEPTH_WORDS = CODE_AT + 4
"""Move-buffer words per ply: the moves and their scores, then the code (lengths, the two
owner streams, the live cards) when the ply starts a trick."""
# After the plies, a thread's move buffer keeps what is its own: the nodes it searched;
# 0 for the main search, or 1 for a helper thread, which takes the others' leads in
# reverse order (``Solver(threads=2)``); and its move-ordering history
# by seat and card (written at every cut-off: shared, it would bounce between the caches
# of the cores).
NODES_AT = MAX_DEPTH * DEPTH_WORDS
HELPER_AT = NODES_AT + 1
HIST_AT = HELPER_AT + 1
MOVES_WORDS = HIST_AT + PLAYERS * DECK_SIZE

# Layout of the flat ``tables`` array shared by the core and its driver (and by the
# threads of a search): settings; from TT_BASE the transposition table, SLOT int64 per
# entry: lengths, head (leader, flags, question) with the relevant places per suit above
# it, the two owner streams cut to those places (these four XORed with the data word),
# and data (stamp << 32 | tricks left << 24 | best lead << 16 | bound a << 8 | bound b); from
# the word at DIR_BASE the directory, DIR_SLOT int64 per group of positions that share
# lengths and head: lengths, head | tricks left << 14 | stamp << 18, then up to PATTERNS
# relevant-places patterns (each plus one; 0 = none), most recently stored first; from
# the word at FILTER_BASE the filter of keys stored (see ``filter_has``).
TT_MASK = 1
TT_STAMP = 2
EXACT = 3
"""0: full search; 1: no rank abstraction and no equivalent-card pruning; 2: no abstraction."""
LIMIT = 4
NO_LIMIT = (1 << 62) - 1
DIR_BASE = 5
"""Index of the word holding where the directory starts (after the table's entries)."""
DIR_MASK = 6
TT_BASE = 64
SLOT = 5
PROBES = 4
"""Slots tried for one exact key: every key of a group hashes apart, so few collide."""
PATTERNS = 16
"""Patterns of places kept per group: 16 finds about twice the entries 4 does in whole
deals; more adds little."""
DIR_SLOT = 2 + PATTERNS
FILTER_BASE = 7
FILTER_MASK = 8
FILTER_BITS = 48
"""Key bits per filter word; the 15 bits above them hold the stamp they were set under."""
DIR_PROBES = 4
HEAD_BITS = (1 << 14) - 1
PLACES_SHIFT = 14
NO_RANKS = 0xDDDD
"""A certificate that relies on no rank: threshold 13 (above the ace) in every suit."""


def popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


def top_card(x: int) -> int:
    """Index of the highest set bit of a non-zero mask below 2**56."""
    n = 0
    if x >> 32:
        x >>= 32
        n += 32
    if x >> 16:
        x >>= 16
        n += 16
    if x >> 8:
        x >>= 8
        n += 8
    if x >> 4:
        x >>= 4
        n += 4
    if x >> 2:
        x >>= 2
        n += 2
    if x >> 1:
        n += 1
    return n


def rel_card(rel: int, card: int) -> int:
    """``rel`` with ``card``'s rank made relevant (and so every live card above it)."""
    if card < 0:
        return rel
    suit = card // RANK_COUNT
    rank = card - suit * RANK_COUNT
    shift = 4 * suit
    if rank < (rel >> shift) & 0xF:
        rel = (rel & ~(0xF << shift)) | (rank << shift)
    return rel


def rel_union(a: int, b: int) -> int:
    """Cards relevant to either certificate: the lower threshold in each suit."""
    out = 0
    for suit in range(4):
        shift = 4 * suit
        ta = (a >> shift) & 0xF
        tb = (b >> shift) & 0xF
        out |= (ta if ta < tb else tb) << shift
    return out


def top_run(mine: int, alive: int) -> tuple[int, int]:
    """How many of the highest live cards of one suit (``alive``) are ``mine`` in a row,
    and the lowest of them (-1 for none)."""
    count = 0
    lowest = -1
    while alive:
        top = top_card(alive)
        if not (mine >> top) & 1:
            break
        count += 1
        lowest = top
        alive ^= 1 << top
    return count, lowest


def beaten(high: int, low: int) -> int:
    """How many cards of ``low`` can each meet a different, higher card of ``high`` (one
    suit): the highest cards of ``high`` take the highest ``low`` card below them."""
    count = 0
    while high and low:
        h = top_card(high)
        high ^= 1 << h
        below = low & ((1 << h) - 1)
        if below:
            low ^= 1 << top_card(below)
            count += 1
    return count


def sure_bounds(trump: int, seat: int, hands: Any, tl: int) -> tuple[int, int, int, int, int, int]:
    """A floor and a ceiling on the seat's further tricks that hold whatever anyone plays,
    a ceiling the others can hold it to, then the certificate of each (the ranks it
    relied on).

    Floor: every trump of the seat wins its trick unless a higher opposing
    trump is in it, and each opposing trump is in one trick only; so at
    least as many trumps win as cannot be matched to a different higher
    opposing trump.  Ceiling: likewise each trump of one opponent wins a
    trick for its side unless a higher trump of the seat meets it.  Third,
    the others *can* see to it that the seat's cards of a side suit never
    win if one opponent holds as many cards of it above the seat's best:
    that opponent covers each of them, and it only loses such a card to a
    discard when it holds nothing else, by which time the seat has no more
    of the suit than it has of those cards.  (Only a cap for questions the
    others answer by keeping the seat low: they may prefer not to cover.)
    """
    tmask = SUIT_MASKS[trump] if trump >= 0 else 0
    mine = hands[seat] & tmask
    floor = 0
    floor_rel = NO_RANKS
    most = 0
    trump_rel = NO_RANKS
    if trump >= 0:
        opp_tr = 0
        for p in range(PLAYERS):
            if p != seat:
                opp_tr |= hands[p] & tmask
        floor = popcount(mine)
        if mine and opp_tr:
            floor -= beaten(opp_tr, mine)
            floor_rel = rel_card(floor_rel, top_card(mine & -mine))
        for p in range(PLAYERS):
            theirs = hands[p] & tmask
            if p != seat and theirs:
                k = popcount(theirs) - beaten(mine, theirs)
                if k > most:
                    most = k
                    trump_rel = NO_RANKS
                    if mine:
                        trump_rel = rel_card(trump_rel, top_card(theirs & -theirs))
    dead = 0
    dead_rel = NO_RANKS
    for suit in range(4):
        if suit == trump:
            continue
        held = hands[seat] & SUIT_MASKS[suit]
        if not held:
            continue
        k = popcount(held)
        top = top_card(held)
        over = SUIT_MASKS[suit] & ~((2 << top) - 1)
        for p in range(PLAYERS):
            if p != seat and popcount(hands[p] & over) >= k:
                dead += k
                dead_rel = rel_card(dead_rel, top)
                break
    return floor, tl - most, tl - dead, floor_rel, trump_rel, dead_rel


def drop_lowest(hand: int, count: int) -> int:
    """``hand`` less its ``count`` lowest cards."""
    for _ in range(count):
        if hand == 0:
            break
        hand &= hand - 1
    return hand


def seat_quick_tricks(
    rules: Any, seat: int, hands: Any, trump_played: bool, first: bool
) -> tuple[int, int]:
    """Tricks the seat, on lead, is sure of, and the certificate of ranks relied on.

    It runs its top trumps (when it may lead them): each wins, and every
    opponent must follow with a trump while it has one (its lowest, which
    leaves it the most power to beat the seat's trumps later).  Then it runs
    the top cards of each side suit for as many rounds as every opponent
    still holding a trump can follow (a void one could ruff).  Its other
    trumps win later unless beaten, which the floor of ``sure_bounds``
    counts on the trumps left after the drawing.
    """
    trump = rules.trump
    own = hands[seat]
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    count = 0
    drawn = 0
    rel = NO_RANKS
    if trump >= 0:
        tmask = SUIT_MASKS[trump]
        mine = own & tmask
        opp_tr = alive & ~own & tmask
        if opp_tr and mine:
            run, lowest = top_run(mine, alive & tmask)
            rel = rel_card(rel, top_card(mine & -mine))
            rest = mine
            if run and legal_mask(rules, own, -1, -1, first, trump_played) & tmask:
                drawn = run
                rest = mine & ((1 << lowest) - 1)
            left = 0
            for p in range(PLAYERS):
                if p != seat:
                    left |= drop_lowest(hands[p] & tmask, drawn)
            count = drawn + popcount(rest) - beaten(left, rest)
        else:
            count = popcount(mine)
    for suit in range(4):
        if suit == trump:
            continue
        smask = SUIT_MASKS[suit]
        run, lowest = top_run(own & smask, alive & smask)
        if run == 0:
            continue
        rel = rel_card(rel, lowest)
        if trump >= 0:
            tmask = SUIT_MASKS[trump]
            for p in range(PLAYERS):
                if p != seat and popcount(hands[p] & tmask) > drawn:
                    length = popcount(hands[p] & smask)
                    if run > length:
                        run = length
        count += run
    return count, rel


def seat_floor_untrumped(rules: Any, seat: int, hands: Any) -> tuple[int, int]:
    """Tricks the seat is sure of whoever leads, once none of the others holds a trump
    (0 while any does), and the certificate of ranks relied on.

    Every trump of the seat then wins whenever it is played.  Its *winners*,
    the top live cards of a side suit it holds in a row, win whenever played
    to a trick of their suit, since nobody can ruff them; one is lost only
    when discarded, and the seat discards a winner only when it holds neither
    a trump nor any other card.  So with a trump, the seat follows the
    others' leads with its losers until it can win a trick with a winner or
    a ruff, and from then on cashes every winner and trump: all of them are
    its.  Without a trump, the same holds when it has a winner in every suit
    the others hold: it wins the first trick of whatever they lead.
    """
    trump = rules.trump
    own = hands[seat]
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    others = alive & ~own
    trumps = 0
    if trump >= 0:
        if others & SUIT_MASKS[trump]:
            return 0, NO_RANKS
        trumps = popcount(own & SUIT_MASKS[trump])
    winners = 0
    rel = NO_RANKS
    every_suit = True
    for suit in range(4):
        if suit == trump:
            continue
        smask = SUIT_MASKS[suit]
        run, lowest = top_run(own & smask, alive & smask)
        if run:
            winners += run
            rel = rel_card(rel, lowest)
        elif others & smask:
            every_suit = False
    if trumps or every_suit:
        return trumps + winners, rel
    return 0, NO_RANKS


def opponent_quick_tricks(
    rules: Any, seat: int, leader: int, hands: Any, trump_played: bool, first: bool
) -> tuple[int, int]:
    """Tricks the opposing leader is sure of, and the certificate of ranks relied on.

    Its top trumps win whenever played; if it may lead them, it runs them
    first, drawing the others' trumps.  Then it runs its top cards of each
    side suit for as many rounds as nobody may ruff them: the seat ruffs once
    void (while it has trumps left), and a partner of the leader that is
    void must ruff under ``must_trump``, which would take the lead away.
    """
    trump = rules.trump
    own = hands[leader]
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    count = 0
    drawn = 0
    rel = NO_RANKS
    if trump >= 0:
        tmask = SUIT_MASKS[trump]
        count, lowest = top_run(own & tmask, alive & tmask)
        rel = rel_card(rel, lowest)
        if count and legal_mask(rules, own, -1, -1, first, trump_played) & tmask:
            drawn = count
    for suit in range(4):
        if suit == trump:
            continue
        smask = SUIT_MASKS[suit]
        run, lowest = top_run(own & smask, alive & smask)
        if run == 0:
            continue
        rel = rel_card(rel, lowest)
        if trump >= 0:
            tmask = SUIT_MASKS[trump]
            for p in range(PLAYERS):
                if p == leader or popcount(hands[p] & tmask) <= drawn:
                    continue
                if p != seat and rules.must_trump == NEVER:
                    continue
                length = popcount(hands[p] & smask)
                if run > length:
                    run = length
        count += run
    return count, rel


def position_code(hands: Any, leader: int, flags: int) -> tuple[int, int, int, int]:
    """The position at a trick boundary as the table sees it: ``(lengths, head, s01, s23)``.

    Only the order of the live cards within each suit matters to the play,
    so a suit is written as the owners of its live cards from the top down,
    two bits each (``s01`` holds spades and hearts, 26 bits each, ``s23`` the
    rest).  ``lengths`` has every hand's length in every suit (the fourth
    hand's clubs follow from the others); ``head`` the leader and flags.
    """
    lengths = 0
    shift = 0
    for p in range(PLAYERS):
        hand = hands[p]
        for suit in range(4):
            if p == PLAYERS - 1 and suit == 3:
                break
            lengths |= popcount(hand & SUIT_MASKS[suit]) << shift
            shift += 4
    h0 = hands[0]
    h1 = hands[1]
    h2 = hands[2]
    alive = h0 | h1 | h2 | hands[3]
    s01 = 0
    s23 = 0
    for suit in range(4):
        chunk = alive & SUIT_MASKS[suit]
        stream = 0
        nbits = 0
        while chunk:
            t = top_card(chunk)
            bit = 1 << t
            chunk ^= bit
            owner = 0 if h0 & bit else (1 if h1 & bit else (2 if h2 & bit else 3))
            stream |= owner << nbits
            nbits += 2
        if suit == 0:
            s01 = stream
        elif suit == 1:
            s01 |= stream << 26
        elif suit == 2:
            s23 = stream
        else:
            s23 |= stream << 26
    return lengths, flags | (leader << 2), s01, s23


def code_after(moves: Any, at: int, gone: int) -> tuple[int, int, int]:
    """``position_code``'s lengths and streams, from those of the trick start kept at
    ``moves[at:]``, once the four ``gone`` cards have been played.

    Each card leaves its suit's stream by cutting out its two bits, at its place
    among the live cards of the trick start: lowest cards first, so the places of
    the others do not move.  Four cuts instead of a walk over every live card.
    """
    lengths = moves[at]
    s01 = moves[at + 1]
    s23 = moves[at + 2]
    alive = moves[at + 3]
    m = gone
    while m:
        low = m & -m
        m ^= low
        c = top_card(low)
        suit = c // RANK_COUNT
        place = popcount(alive & SUIT_MASKS[suit] & ~((low << 1) - 1))
        shift = 26 if suit & 1 else 0
        word = s01 if suit < 2 else s23
        chunk = (word >> shift) & 0x3FFFFFF
        owner = (chunk >> (2 * place)) & 3
        chunk = (chunk & ((1 << (2 * place)) - 1)) | ((chunk >> (2 * place + 2)) << (2 * place))
        word = (word & ~(0x3FFFFFF << shift)) | (chunk << shift)
        if suit < 2:
            s01 = word
        else:
            s23 = word
        if owner != PLAYERS - 1 or suit != 3:
            lengths -= 1 << (4 * (4 * owner + suit))
    return lengths, s01, s23


def trick_code(
    hands: Any, moves: Any, depth: int, leader: int, flags: int, alive: int
) -> tuple[int, int, int, int]:
    """``position_code`` at a trick start ``depth`` plies below the search's root, also
    kept in the move buffer for the next trick start.

    When the previous trick start lies in this search (four plies up; trick
    starts are four plies apart), its code less the trick's four cards is
    cheaper than a walk over every live card (``code_after``).  ``alive`` is
    every card still in a hand.  Kept apart from ``search``: inline there, the
    compiled search ran a quarter slower.
    """
    if depth >= PLAYERS:
        start = (depth - PLAYERS) * DEPTH_WORDS + CODE_AT
        lengths, s01, s23 = code_after(moves, start, moves[start + 3] & ~alive)
        head = flags | (leader << 2)
    else:
        lengths, head, s01, s23 = position_code(hands, leader, flags)
    here = depth * DEPTH_WORDS + CODE_AT
    moves[here] = lengths
    moves[here + 1] = s01
    moves[here + 2] = s23
    moves[here + 3] = alive
    return lengths, head, s01, s23


def mix(x: int) -> int:
    """A hash of ``0 <= x < 2**62`` in 31 bits, the same compiled and interpreted (no
    product reaches 2**63, so int64 never wraps)."""
    h = ((x & 0x7FFFFFFF) * 0x5BD1E995) ^ ((x >> 31) * 0x3C6EF372)
    h = h & 0x3FFFFFFFFFFFFFFF
    h ^= h >> 29
    h = (h & 0x7FFFFFFF) * 0x2545F491
    h ^= h >> 31
    return h & 0x7FFFFFFF


def group_index(lengths: int, head: int) -> int:
    """Where the directory keeps the patterns of the positions sharing lengths and head."""
    return mix(lengths ^ (head << 47))


def key_index(group: int, places: int, k01: int, k23: int) -> int:
    """Where the table keeps one exact key: the group, the places and the owners cut to them
    (all under 2**62 when combined, so ``mix`` takes them whole)."""
    x = k01 ^ (k23 << 9) ^ (places << 44) ^ (group << 21)
    return mix(x & 0x3FFFFFFFFFFFFFFF)


def run_mask(places: int) -> int:
    return (1 << (2 * places)) - 1


def dir_find(tables: Any, lengths: int, head: int, group: int) -> int:
    """The directory slot of a group of positions (same lengths and head), or -1."""
    mask = tables[DIR_MASK]
    stamp = tables[TT_STAMP]
    base = tables[DIR_BASE]
    for j in range(DIR_PROBES):
        at = base + DIR_SLOT * ((group + j) & mask)
        word = tables[at + 1]
        if (word >> 18) == stamp and tables[at] == lengths and (word & HEAD_BITS) == head:
            return int(at)
    return -1


def dir_add(tables: Any, lengths: int, head: int, group: int, tl: int, places: int) -> None:
    """Put ``places`` first in its group's list of patterns (making the group's slot, over
    a stale or else the shallowest one, when it has none); the oldest pattern drops off."""
    mask = tables[DIR_MASK]
    stamp = tables[TT_STAMP]
    base = tables[DIR_BASE]
    found = -1
    empty = -1
    shallow = -1
    shallow_tl = 99
    for j in range(DIR_PROBES):
        at = base + DIR_SLOT * ((group + j) & mask)
        word = tables[at + 1]
        if (word >> 18) != stamp:
            if empty < 0:
                empty = at
            continue
        if tables[at] == lengths and (word & HEAD_BITS) == head:
            found = at
            break
        t = (word >> 14) & 0xF
        if t < shallow_tl:
            shallow_tl = t
            shallow = at
    code = places + 1
    if found < 0:
        found = empty if empty >= 0 else shallow
        tables[found] = lengths
        tables[found + 1] = head | (tl << 14) | (stamp << 18)
        for k in range(PATTERNS):
            tables[found + 2 + k] = 0
    last = PATTERNS - 1
    for k in range(PATTERNS):
        if tables[found + 2 + k] == code or tables[found + 2 + k] == 0:
            last = k
            break
    for k in range(last, 0, -1):
        tables[found + 2 + k] = tables[found + 1 + k]
    tables[found + 2] = code


def filter_at(tables: Any, key: int) -> int:
    """The filter word that holds a key's bit (``key % FILTER_BITS``)."""
    return int(tables[FILTER_BASE] + ((key // FILTER_BITS) & tables[FILTER_MASK]))


def filter_has(tables: Any, key: int) -> bool:
    """Whether a key (``key_index``) may have been stored under this stamp: false for
    most keys never stored, true for every key stored.

    Most lookups that find nothing try every pattern of their group, and a
    visit to the table is a miss in the cache (the table is many times the
    cache's size); the filter is a bit per key hash, small enough to stay in
    the cache.  Each word keeps the stamp its bits were set under, so a new
    question starts with an empty filter without clearing anything.
    """
    word: int = tables[filter_at(tables, key)]
    tag: int = tables[TT_STAMP] & 0x7FFF
    return (word >> FILTER_BITS) == tag and (word >> (key % FILTER_BITS)) & 1 == 1


def filter_add(tables: Any, key: int) -> None:
    at = filter_at(tables, key)
    tag = tables[TT_STAMP] & 0x7FFF
    word = tables[at]
    if (word >> FILTER_BITS) != tag:
        word = tag << FILTER_BITS
    tables[at] = word | (1 << (key % FILTER_BITS))


def tt_find(
    tables: Any, lengths: int, head: int, group: int, places: int, s01: int, s23: int
) -> int:
    """The entry that covers this position under one pattern of relevant places (the same
    lengths, leader, flags, question and owners of those places), or -1."""
    m01 = run_mask(places & 0xF) | (run_mask((places >> 4) & 0xF) << 26)
    m23 = run_mask((places >> 8) & 0xF) | (run_mask((places >> 12) & 0xF) << 26)
    k01 = s01 & m01
    k23 = s23 & m23
    i = key_index(group, places, k01, k23)
    if not filter_has(tables, i):
        return -1
    word1 = head | (places << PLACES_SHIFT)
    size_mask = tables[TT_MASK]
    stamp = tables[TT_STAMP]
    for j in range(PROBES):
        at = TT_BASE + SLOT * ((i + j) & size_mask)
        d = tables[at + 4]
        if (
            (d >> 32) == stamp
            and tables[at + 2] ^ d == k01
            and tables[at + 3] ^ d == k23
            and tables[at] ^ d == lengths
            and tables[at + 1] ^ d == word1
        ):
            return int(d)
    return -1


def places_of(rel: int, alive: int) -> int:
    """Per suit, how many live cards (from the top) a certificate makes relevant."""
    places = 0
    for suit in range(4):
        threshold = (rel >> (4 * suit)) & 0xF
        chunk = alive & SUIT_MASKS[suit]
        n = popcount(chunk >> (suit * RANK_COUNT + threshold)) if threshold < 13 else 0
        places |= n << (4 * suit)
    return places


def rel_of(places: int, alive: int) -> int:
    """The certificate, in this position's cards, of an entry's relevant places."""
    rel = NO_RANKS
    for suit in range(4):
        n = (places >> (4 * suit)) & 0xF
        if n:
            chunk = alive & SUIT_MASKS[suit]
            for _ in range(n - 1):
                chunk ^= 1 << top_card(chunk)
            rel = rel_card(rel, top_card(chunk))
    return rel


def tt_store(
    tables: Any,
    lengths: int,
    head: int,
    s01: int,
    s23: int,
    places: int,
    data: int,
    tl: int,
) -> None:
    """Store an entry over the same key (keeping the tighter bounds), else in an empty
    slot, else over the shallowest; and list its pattern of places in its group's slot.

    Positions that share lengths and head differ in who holds which ranks, and a
    group can have thousands of them: each exact key (places and the owners cut to
    them) hashes apart, and the directory says which patterns to look them up by.
    """
    group = group_index(lengths, head)
    size_mask = tables[TT_MASK]
    stamp = tables[TT_STAMP]
    m01 = run_mask(places & 0xF) | (run_mask((places >> 4) & 0xF) << 26)
    m23 = run_mask((places >> 8) & 0xF) | (run_mask((places >> 12) & 0xF) << 26)
    k01 = s01 & m01
    k23 = s23 & m23
    i = key_index(group, places, k01, k23)
    dir_add(tables, lengths, head, group, tl, places)
    filter_add(tables, i)
    word1 = head | (places << PLACES_SHIFT)
    victim = -1
    old = 0
    empty = -1
    shallow = -1
    shallow_tl = 99
    for j in range(PROBES):
        at = TT_BASE + SLOT * ((i + j) & size_mask)
        d = tables[at + 4]
        if (d >> 32) != stamp:
            if empty < 0:
                empty = at
            continue
        if (
            tables[at] ^ d == lengths
            and tables[at + 1] ^ d == word1
            and tables[at + 2] ^ d == k01
            and tables[at + 3] ^ d == k23
        ):
            victim = at
            old = d
            break
        t = (d >> 24) & 0xFF
        if t < shallow_tl:
            shallow_tl = t
            shallow = at
    if victim < 0:
        victim = empty if empty >= 0 else shallow
    elif (head >> 4) & 3 != 3:
        # The same positions and question kind: keep the tighter of each bound.
        a = (data >> 8) & 0xFF
        b = data & 0xFF
        if (old >> 8) & 0xFF > a:
            a = (old >> 8) & 0xFF
        if old & 0xFF < b:
            b = old & 0xFF
        code = (data >> 16) & 0xFF
        if code == 0:
            code = (old >> 16) & 0xFF
        data = (code << 16) | (a << 8) | b
    full = (stamp << 32) | (tl << 24) | data
    tables[victim] = lengths ^ full
    tables[victim + 1] = word1 ^ full
    tables[victim + 2] = k01 ^ full
    tables[victim + 3] = k23 ^ full
    tables[victim + 4] = full


def encode_move(card: int, alive: int) -> int:
    """A lead as suit and place from the top among live cards (1-based; 0 = none)."""
    suit = card // RANK_COUNT
    above = alive & SUIT_MASKS[suit] & ~((2 << card) - 1)
    return suit * 16 + popcount(above) + 1


def decode_move(code: int, alive: int) -> int:
    if code <= 0:
        return -1
    code -= 1
    suit = code // 16
    place = code - suit * 16
    chunk = alive & SUIT_MASKS[suit]
    for _ in range(place):
        if chunk == 0:
            return -1
        chunk ^= 1 << top_card(chunk)
    if chunk == 0:
        return -1
    return top_card(chunk)


def can_beat(hand: int, card: int, led: int, trump: int) -> bool:
    """Whether a hand playing later to a trick led in ``led`` could beat ``card``."""
    follow = hand & SUIT_MASKS[led]
    suit = card // RANK_COUNT
    if follow:
        return suit == led and (follow & ~((2 << card) - 1)) != 0
    if trump < 0:
        return False
    trumps = hand & SUIT_MASKS[trump]
    if not trumps:
        return False
    return suit != trump or (trumps & ~((2 << card) - 1)) != 0


def order_moves(
    rules: Any,
    seat: int,
    hands: Any,
    tables: Any,
    moves: Any,
    at: int,
    to_act: int,
    leader: int,
    cand: int,
    ncards: int,
    led: int,
    win: int,
    win_seat: int,
    first_move: int,
) -> int:
    """Write the candidate cards into ``moves[at:]`` best-first; returns how many.

    Rules of thumb, so that the first move usually settles an OR/AND node:
    a card that makes the trick safe for the mover's side (nobody of the
    other side still to play can beat it) first, the cheapest such; then
    cards that win for now, highest first; then low discards, trumps last.
    Above all that, leads in suits the others must follow: they leave the
    others few choices (fewer branches to refute) and keep the seat from
    ruffing.  Ties go to the card that settled most nodes before (history).
    """
    if cand & (cand - 1) == 0:
        # A forced card (half the nodes searched): nothing to order.
        moves[at] = top_card(cand)
        return 1
    trump = rules.trump
    count = 0
    m = cand
    my_side = to_act == seat
    while m:
        low = m & -m
        m ^= low
        c = top_card(low)
        suit = c // RANK_COUNT
        rank = c - suit * RANK_COUNT
        if c == first_move:
            score = 1 << 40
        else:
            n_led = suit if ncards == 0 else led
            if ncards == 0 or beats(c, win, trump):
                n_win = c
                n_ws = to_act
            else:
                n_win = win
                n_ws = win_seat
            ours = (n_ws == seat) == my_side
            threatened = False
            for k in range(ncards + 1, PLAYERS):
                p = leader + k
                if p >= PLAYERS:
                    p -= PLAYERS
                if ((p == seat) != my_side) and can_beat(hands[p], n_win, n_led, trump):
                    threatened = True
                    break
            if ours and not threatened:
                if n_win == c:
                    score = 300 - rank - (20 if suit == trump and n_led != trump else 0)
                else:
                    score = 300 - rank - (20 if suit == trump else 0)
            elif ours:
                score = 200 + rank
            else:
                score = 100 - rank - (20 if suit == trump else 0)
            if ncards == 0 and my_side:
                # Leads that everyone must follow leave the others few choices.
                for k in range(1, PLAYERS):
                    p = leader + k
                    if p >= PLAYERS:
                        p -= PLAYERS
                    if hands[p] & SUIT_MASKS[suit]:
                        score += 80
            elif ncards == 0 and hands[seat] & SUIT_MASKS[suit]:
                score += 80  # the seat must follow: it cannot ruff
            score = (score << 24) + moves[HIST_AT + to_act * DECK_SIZE + c]
        moves[at + count] = c
        moves[at + MOVE_SLOTS + count] = score
        count += 1
    # insertion sort, best first
    for i in range(1, count):
        c = moves[at + i]
        s = moves[at + MOVE_SLOTS + i]
        j = i - 1
        while j >= 0 and moves[at + MOVE_SLOTS + j] < s:
            moves[at + j + 1] = moves[at + j]
            moves[at + MOVE_SLOTS + j + 1] = moves[at + MOVE_SLOTS + j]
            j -= 1
        moves[at + j + 1] = c
        moves[at + MOVE_SLOTS + j + 1] = s
    return count


def distinct(legal: int, alive: int) -> int:
    """``legal`` less every card whose next live card up its suit is also legal."""
    cand = legal
    m = legal
    while m:
        low = m & -m
        m ^= low
        c = top_card(low)
        up = alive & SUIT_MASKS[c // RANK_COUNT] & ~((low << 1) - 1)
        if up and (up & -up) & legal:
            cand ^= low
    return cand


def cover(covered: int, nib: int, card: int, rel: int) -> int:
    """``covered`` with the threshold of the suit of ``card`` raised to its child's
    certificate ``rel`` when ``card`` lies below it.

    Two cards of one hand and suit that both beat the card winning the trick,
    or both do not (``nib`` picks suit and which), lead to positions that differ
    only in which of the two is left in the hand and which lies on the table
    (or is gone, after the last card).  When both lie below the threshold the
    first one's answer relied on in their suit, the two positions agree on the
    lengths and on every relevant card, so the second has the same answer (and
    the same certificate): it need not be searched.  Unlike equivalent cards
    (``distinct``) this catches cards far apart, with cards of others between.
    """
    suit = card // RANK_COUNT
    rank = card - suit * RANK_COUNT
    threshold = (rel >> (4 * suit)) & 0xF
    if rank < threshold and threshold > (covered >> nib) & 0xF:
        covered = (covered & ~(0xF << nib)) | (threshold << nib)
    return covered


def last_trick(rules: Any, seat: int, hands: Any, leader: int, lo: int, hi: int) -> int:
    """One card each, so no choice is left: play the trick out and look at the winner."""
    trump = rules.trump
    win = -1
    win_seat = -1
    suits = 0
    p = leader
    for _ in range(PLAYERS):
        c = top_card(hands[p])
        suit = c // RANK_COUNT
        if win < 0 or beats(c, win, trump):
            win = c
            win_seat = p
        suits += 1 << (4 * suit)
        p = p + 1 if p + 1 < PLAYERS else 0
    rel = NO_RANKS
    if (suits >> (4 * (win // RANK_COUNT))) & 0xF > 1:
        rel = rel_card(rel, win)
    won = 1 if win_seat == seat else 0
    return (rel << 1) | (1 if lo <= won <= hi else 0)


def search(
    rules: Any,
    seat: int,
    hands: Any,
    tables: Any,
    moves: Any,
    leader: int,
    ncards: int,
    led: int,
    win: int,
    win_seat: int,
    table: int,
    trump_played: bool,
    first_trick: bool,
    tl: int,
    lo: int,
    hi: int,
    depth: int,
) -> int:
    """Can ``seat`` take a number of the ``tl`` tricks left in ``[lo, hi]``?

    Returns ``certificate << 1 | answer``: the certificate names, per suit,
    the lowest card whose rank the answer relied on (every live card above
    it counts too), so the table can give the answer to every position that
    differs only in the smaller cards (see ``tt_find``).
    """
    if lo <= 0 and hi >= tl:
        return (NO_RANKS << 1) | 1
    if lo > hi or lo > tl or hi < 0:
        return NO_RANKS << 1
    moves[NODES_AT] += 1
    if moves[NODES_AT] > tables[LIMIT]:
        return -1
    trump = rules.trump
    to_act = leader + ncards
    if to_act >= PLAYERS:
        to_act -= PLAYERS
    lengths = 0
    head = 0
    s01 = 0
    s23 = 0
    first_move = -1
    exact = tables[EXACT] == 1 or tables[EXACT] == 2
    if ncards == 0:
        if tl == 1:
            return last_trick(rules, seat, hands, leader, lo, hi)
        floor, ceiling, live, floor_rel, ceiling_rel, live_rel = sure_bounds(trump, seat, hands, tl)
        if floor > hi:
            return floor_rel << 1
        if ceiling < lo:
            return ceiling_rel << 1
        if live < lo:
            return live_rel << 1
        if floor >= lo and ceiling <= hi:
            return (rel_union(floor_rel, ceiling_rel) << 1) | 1
        if hi >= tl:
            if to_act == seat:
                quick, rel = seat_quick_tricks(rules, seat, hands, trump_played, first_trick)
                if quick >= lo:
                    return (rel << 1) | 1
            else:
                quick, rel = opponent_quick_tricks(
                    rules, seat, to_act, hands, trump_played, first_trick
                )
                if tl - quick < lo:
                    return rel << 1
                if not first_trick:
                    sure, rel = seat_floor_untrumped(rules, seat, hands)
                    if sure >= lo:
                        return (rel << 1) | 1
        flags = (1 if trump_played else 0) | (2 if first_trick else 0)
        alive = hands[0] | hands[1] | hands[2] | hands[3]
        lengths, head, s01, s23 = trick_code(hands, moves, depth, leader, flags, alive)
        if hi >= tl:
            head |= 1 << 4
        elif lo <= 0:
            head |= 2 << 4
        else:
            head |= (3 << 4) | (lo << 6) | (hi << 10)
        group = group_index(lengths, head)
        d_at = dir_find(tables, lengths, head, group)
        for k in range(PATTERNS if d_at >= 0 else 0):
            code = tables[d_at + 2 + k]
            if code == 0:
                break
            d = tt_find(tables, lengths, head, group, code - 1, s01, s23)
            if d < 0:
                continue
            a = (d >> 8) & 0xFF
            b = d & 0xFF
            answer = -1
            if hi >= tl:
                if a >= lo:
                    answer = 1
                elif b < lo:
                    answer = 0
            elif lo <= 0:
                if b <= hi:
                    answer = 1
                elif a > hi:
                    answer = 0
            else:
                answer = a
            if answer >= 0:
                # Patterns that answer come first next time: most lookups stop at one.
                for m in range(k, 0, -1):
                    tables[d_at + 2 + m] = tables[d_at + 1 + m]
                tables[d_at + 2] = code
                return (rel_of(code - 1, alive) << 1) | answer
            if first_move < 0:
                first_move = decode_move((d >> 16) & 0xFF, alive)
    own = hands[to_act]
    legal = legal_mask(rules, own, led, win, first_trick, trump_played)
    alive = hands[0] | hands[1] | hands[2] | hands[3] | table
    cand = legal if tables[EXACT] == 1 else distinct(legal, alive)
    if first_move >= 0 and not (cand >> first_move) & 1:
        first_move = -1
    # The legal cards depend on ranks only through comparisons with the winning card, made
    # when following under must_overtake, or ruffing a trick already ruffed.
    rel = NO_RANKS
    if ncards > 0:
        win_suit = win // RANK_COUNT
        if own & SUIT_MASKS[led]:
            if rules.must_overtake and win_suit == led:
                rel = rel_card(rel, win)
        elif (
            win_suit == trump
            and own & SUIT_MASKS[trump]
            and (rules.must_trump != NEVER or rules.no_waste_trump)
        ):
            rel = rel_card(rel, win)
    at = depth * DEPTH_WORDS
    count = order_moves(
        rules,
        seat,
        hands,
        tables,
        moves,
        at,
        to_act,
        leader,
        cand,
        ncards,
        led,
        win,
        win_seat,
        first_move,
    )
    is_max = to_act == seat
    if ncards == 0 and not is_max and count > 1 and moves[HELPER_AT]:
        # A helper thread takes the others' leads from the other end: where every one
        # must be refuted, the two threads meet in the middle through the table.
        for i in range(count // 2):
            c = moves[at + i]
            moves[at + i] = moves[at + count - 1 - i]
            moves[at + count - 1 - i] = c
    result = not is_max
    decisive = -1
    children = NO_RANKS
    # Per suit, and per whether the card takes the trick, the threshold below which
    # a card searched already showed every card's answer (see ``cover``).
    covered = 0
    skip_covered = tables[EXACT] == 0
    for i in range(count):
        c = moves[at + i]
        suit = c // RANK_COUNT
        nib = 0
        if skip_covered:
            nib = 4 * (2 * suit + (1 if beats(c, win, trump) else 0))
            if c - suit * RANK_COUNT < (covered >> nib) & 0xF:
                continue
        bit = 1 << c
        hands[to_act] = own ^ bit
        n_led = led
        n_win = win
        n_ws = win_seat
        if ncards == 0:
            n_led = suit
            n_win = c
            n_ws = to_act
        elif beats(c, win, trump):
            n_win = c
            n_ws = to_act
        ntp = trump_played or suit == trump
        if ncards == PLAYERS - 1:
            won = 1 if n_ws == seat else 0
            child = search(
                rules,
                seat,
                hands,
                tables,
                moves,
                n_ws,
                0,
                -1,
                -1,
                -1,
                0,
                ntp,
                False,
                tl - 1,
                lo - won,
                hi - won,
                depth + 1,
            )
            # The trick went by rank when another card of the winner's suit is in it.
            win_suit = SUIT_MASKS[n_win // RANK_COUNT]
            if child >= 0 and (table | bit) & win_suit & ~(1 << n_win):
                child = (rel_union(child >> 1, rel_card(NO_RANKS, n_win)) << 1) | (child & 1)
        else:
            child = search(
                rules,
                seat,
                hands,
                tables,
                moves,
                leader,
                ncards + 1,
                n_led,
                n_win,
                n_ws,
                table | bit,
                ntp,
                first_trick,
                tl,
                lo,
                hi,
                depth + 1,
            )
        hands[to_act] = own
        if child < 0:
            return -1
        if (child & 1) == (1 if is_max else 0):
            result = is_max
            decisive = c
            children = child >> 1
            hist = moves[HIST_AT + to_act * DECK_SIZE + c] + tl * tl
            moves[HIST_AT + to_act * DECK_SIZE + c] = hist if hist < (1 << 23) else (1 << 23)
            break
        children = rel_union(children, child >> 1)
        if skip_covered:
            covered = cover(covered, nib, c, child >> 1)
    rel = rel_union(rel, children)
    if decisive < 0:
        # Every move was refuted, the skipped equivalents too: a skipped card relies on
        # the ranks its run relied on, so lower the certificate through the run.
        skipped = legal & ~cand
        while skipped:
            c = top_card(skipped)
            skipped ^= 1 << c
            up = alive & SUIT_MASKS[c // RANK_COUNT] & ~((2 << c) - 1)
            nxt = top_card(up & -up)
            shift = 4 * (c // RANK_COUNT)
            if nxt - (c // RANK_COUNT) * RANK_COUNT >= (rel >> shift) & 0xF:
                rel = rel_card(rel, c)
    if exact:
        rel = 0
    if ncards == 0:
        a = 0
        b = tl
        if hi >= tl:
            if result:
                a = lo
            else:
                b = lo - 1
        elif lo <= 0:
            if result:
                b = hi
            else:
                a = hi + 1
        else:
            a = 1 if result else 0
        best = decisive if decisive >= 0 else first_move
        code = encode_move(best, alive) if best >= 0 else 0
        places = places_of(rel, alive)
        data = (code << 16) | (a << 8) | b
        tt_store(tables, lengths, head, s01, s23, places, data, tl)
    return (rel << 1) | (1 if result else 0)


FUNCTIONS = (
    "popcount",
    "top_card",
    "rel_card",
    "rel_union",
    "top_run",
    "beaten",
    "sure_bounds",
    "drop_lowest",
    "seat_quick_tricks",
    "seat_floor_untrumped",
    "opponent_quick_tricks",
    "position_code",
    "code_after",
    "trick_code",
    "mix",
    "group_index",
    "key_index",
    "run_mask",
    "dir_find",
    "filter_at",
    "filter_has",
    "filter_add",
    "dir_add",
    "tt_find",
    "places_of",
    "rel_of",
    "tt_store",
    "encode_move",
    "decode_move",
    "can_beat",
    "order_moves",
    "distinct",
    "cover",
    "last_trick",
    "search",
)
"""The core's functions in dependency order, for ``solver._build``."""
