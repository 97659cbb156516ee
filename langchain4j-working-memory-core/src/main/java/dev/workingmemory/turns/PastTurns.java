package dev.workingmemory.turns;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.Provenance;
import dev.workingmemory.internal.CrystalIds;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.internal.MessageText;
import dev.workingmemory.internal.Passages;
import dev.workingmemory.layer.EvictedMessage;
import dev.workingmemory.layer.LayerBudget;
import dev.workingmemory.layer.LayerContext;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.layer.MemoryLayerFactory;
import dev.workingmemory.layer.WindowMessages;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Past turns (issues 10 and 20): the messages that leave the message window become {@link CrystalKind#TURN} crystals
 * in the resource's scope, so that {@code memory_search} finds what the model no longer sees. Renders nothing.
 *
 * <p>The crystals are the <em>passages</em> of an <em>exchange</em> (a user message and the assistant texts and tool
 * results that follow it; tool requests are left out): each message is a line {@code user: …} (a user message
 * with a name, as {@code @UserName} gives it in a conversation of several people, {@code user alice: …}),
 * {@code assistant: …}, {@code tool getWeather: …}; whole lines are packed into a passage of at most
 * {@value Passages#MAX_SIZE} by {@link Passages#size} (320 characters of Latin text, about 80 of Chinese) while they fit
 * and were said on the same day (in the zone of the provider's clock), and a longer line is a passage
 * of its own, cut into several by {@link Passages#of} when it is half as long again (each begins with the line's
 * label again). A message counts up to {@value #MAX_MESSAGE_CHARS} characters, a tool result of up to
 * {@value #TOOL_RESULT_CHARS} whole (a 1,000-token floor), a longer one by an excerpt of {@value #TOOL_EXCERPT_CHARS}
 * (it is one the context pressure layer prunes in a 128K window and keeps whole in its tool-output cache, searched
 * too); the results of the memory's own tools
 * ({@code memory_search}, {@code working_memory_note}'s receipt, {@code read_tool_output}, ...: copies of what it keeps
 * already, {@link LayerContext#isMemoryToolResult}) not at all. So a hit is the part of a turn that answers, ten of
 * them fit the search's budget, and the whole exchange stays readable through the passages' ids
 * {@code <exchange id>#0}, {@code #1}, ... in order ({@link Passages#parentId}).
 *
 * <p>A passage's time is when its first line's message was added; its importance {@value #IMPORTANCE}. Its context
 * (searched by keyword with less weight, never embedded or returned) is the passage before it and the one after it
 * in the conversation when they were said within six hours of it (across exchanges; of an exchange still in the
 * window when this one leaves it, the first passage of its first line), so that a question about a fact spread over
 * two turns still finds it. Some passages of a long message (nothing else packed into them) are tagged
 * {@link Crystal#KEYWORDS_ONLY}: the store does not embed them, they are found by their words. They are a model's
 * answer's passages but one (its first that is not code stands for its meaning) and the code of any message
 * ({@link FencedCode}); the rest of what the user said is embedded.
 *
 * <p>An exchange that leaves the window in parts (a turn longer than the whole window) has its passages replaced as
 * it grows (same ids; only the passages that changed are handed over again); past {@value #MAX_EXCHANGE_PASSAGES}
 * passages it continues as an exchange of its own ({@code <id>-1}). Messages whose user message left before the
 * memory was loaded (a restart) form an exchange of their own.
 *
 * <p>A conversation that pauses ({@link MemoryLayer#onPause}: the provider's {@code pauseAfter} without a message, or
 * the memory unloaded) has the exchanges still in its window made into the same crystals, so that a chat too short to
 * leave the window is found from the user's other conversations and after a restart; they stay in the window, and
 * when they leave it only what changed since (a passage's context, lines added after the pause) is handed over again.
 * What the last pause handed over is kept in the snapshot, so that a restart does not hand it over twice.
 *
 * <p>Nothing here waits for embedding: the crystals are only handed to {@link CrystalStore#add}, which queues them.
 *
 * <p>Thread-safe: called holding the thread's lock (it keeps the last exchange only, to continue it).
 */
public final class PastTurns implements MemoryLayer {

    public static final String NAME = "past_turns";
    static final int TOOL_RESULT_CHARS = 4_000;
    static final int TOOL_EXCERPT_CHARS = 300;
    /** How much of an exchange's first line its id is made of. */
    static final int ID_LINE_CHARS = 200;
    static final int MAX_MESSAGE_CHARS = 1_500;
    static final int MAX_EXCHANGE_PASSAGES = 64;
    static final double IMPORTANCE = 0.5;
    static final Duration NEIGHBOUR_SPAN = Duration.ofHours(6);
    /** The label of the model's answers. */
    private static final String ANSWER = "assistant";
    private static final String AT_PAUSE = "handedAtPause";
    private static final List<String> KEYWORDS_ONLY_TAGS = List.of(Crystal.KEYWORDS_ONLY);
    private static final List<String> PIECE_TAGS = Passages.pieceTags(List.of());
    private static final List<String> KEYWORDS_ONLY_PIECE_TAGS = Passages.pieceTags(KEYWORDS_ONLY_TAGS);

    private final LayerContext context;
    private final CrystalStore crystals;
    private final String scope;
    /** The exchange that left the window last: continued by evicted messages that follow it, else the previous one. */
    private Exchange last;
    /** The first passage of the window's first exchange, the context of the last passage to leave; null when none. */
    private NextPassage next;
    /** The window's exchanges made into crystals at the last pause, oldest first: continued when they leave it. */
    private final List<Settled> settled = new ArrayList<>();
    /** Whether {@link #settled} was made since this layer was created (a pause or an eviction since the load). */
    private boolean tracked;
    /**
     * The window's exchanges the last pause handed over (the id of each, its first part's, and how many of the
     * window's messages it held), kept in the snapshot, so that the window loaded after a restart is not handed over
     * again: what a restart finds unchanged counts as handed over.
     */
    private Map<String, Integer> atPause = Map.of();

    private PastTurns(LayerContext context, CrystalStore crystals) {
        this.context = context;
        this.crystals = crystals;
        this.scope = context.key().crystalScope();
    }

    /** Past-turn layers (thread-scoped) that put the crystals into {@code crystals}. */
    public static MemoryLayerFactory factory(CrystalStore crystals) {
        Ensure.notNull(crystals, "crystals");
        return context -> new PastTurns(Ensure.notNull(context, "context"), crystals);
    }

    @Override
    public void onEvicted(List<EvictedMessage> messages, WindowMessages window) {
        if (!tracked && !atPause.isEmpty()) {
            // the first eviction since a load: what the window held before it that a pause made into crystals
            // before the restart counts as handed over, so that it is compared instead of handed over again
            settle(new Before(messages, window), false);
        }
        ZoneId zone = context.clock().getZone();
        List<Exchange> touched = new ArrayList<>();
        int skip = 0; // messages of an exchange made at a pause that its exchange holds already
        for (EvictedMessage evicted : messages) {
            ChatMessage message = evicted.message();
            if (message instanceof UserMessage && !settled.isEmpty()) {
                Settled pausedAt = takeSettled(message, evicted.added());
                if (pausedAt != null) {
                    last = pausedAt.last();
                    skip = pausedAt.taken - 1;
                    touched.add(last);
                    continue;
                }
            }
            if (skip > 0 && !(message instanceof UserMessage)) {
                skip--;
                continue;
            }
            skip = 0;
            Line line = line(message, evicted.added(), zone);
            if (message instanceof UserMessage) {
                last = new Exchange(id(evicted.added(), line), evicted.added(), last);
            } else if (line == null) {
                continue;
            } else if (last == null) {
                last = new Exchange(id(evicted.added(), line), evicted.added(), null);
            } else if (last.full()) {
                last = last.continuation();
            }
            last.add(line);
            if (touched.isEmpty() || touched.get(touched.size() - 1) != last) {
                touched.add(last);
            }
        }
        if (touched.isEmpty()) {
            return;
        }
        List<Crystal> made = new ArrayList<>();
        String source = "thread:" + context.key().thread();
        for (int i = 0; i < touched.size(); i++) {
            Exchange exchange = touched.get(i);
            Passage after = i + 1 < touched.size() ? touched.get(i + 1).firstPassage() : nextInWindow(window, zone);
            exchange.changedCrystals(scope, source, after, made);
        }
        if (!made.isEmpty()) {
            crystals.add(made);
        }
    }

    /**
     * Makes crystals of the exchanges in the window that hold messages added since the last pause: a conversation too
     * short to leave the window is searchable too. The exchanges are kept, so that when they leave the window only
     * what changed meanwhile (a passage's context, lines added since) is handed over again. Messages before the
     * window's first user message (an exchange leaving in parts) are left to eviction.
     */
    @Override
    public void onPause(WindowMessages window) {
        context.write(() -> {
            settle(window, true);
            return null;
        });
    }

    /**
     * Keeps the window's exchanges as made at a pause. {@code handOver}: hands over what is new or changed since it
     * was handed over (by this instance, or, after a restart, by the last pause: {@link #atPause}), and records the
     * window's exchanges as handed over; else (the first eviction after a restart) keeps those the last pause handed
     * over and that are unchanged since, as handed over, and hands over nothing.
     */
    private void settle(WindowMessages window, boolean handOver) {
        tracked = true;
        ZoneId zone = context.clock().getZone();
        List<Settled> exchanges = new ArrayList<>();
        List<Boolean> handedBefore = new ArrayList<>();
        Exchange previous = last;
        int start = 0;
        while (start < window.size() && !(window.message(start) instanceof UserMessage)) {
            start++;
        }
        while (start < window.size()) {
            int end = start + 1;
            while (end < window.size() && !(window.message(end) instanceof UserMessage)) {
                end++;
            }
            ChatMessage first = window.message(start);
            Instant added = window.added(start);
            Settled entry = findSettled(first, added);
            boolean kept = entry != null;
            if (entry == null) {
                Line line = line(first, added, zone);
                entry = new Settled(first, added, new Exchange(id(added, line), added, previous),
                        new Passage(line.passages().get(0), added, null, false, false));
                entry.last().add(line);
                entry.taken = 1;
            }
            // handed over by the last pause before a restart, with the messages it holds now
            boolean before = !kept && Integer.valueOf(end - start).equals(atPause.get(entry.parts.get(0).id));
            if (!handOver && !before) {
                break; // new or changed since: handed over at the next pause, or when it leaves the window
            }
            for (int i = start + entry.taken; i < end; i++) {
                Line line = line(window.message(i), window.added(i), zone);
                if (line != null) {
                    if (entry.last().full()) {
                        entry.parts.add(entry.last().continuation());
                    }
                    entry.last().add(line);
                }
            }
            entry.taken = end - start;
            exchanges.add(entry);
            handedBefore.add(before);
            previous = entry.last();
            start = end;
        }
        List<Crystal> made = new ArrayList<>();
        List<Crystal> madeBefore = new ArrayList<>();
        String source = "thread:" + context.key().thread();
        Map<String, Integer> handed = new LinkedHashMap<>();
        for (int i = 0; i < exchanges.size(); i++) {
            Settled entry = exchanges.get(i);
            // what a pause before a restart handed over is not handed over again; its passages count as handed over,
            // so that leaving the window compares with them
            List<Crystal> into = handedBefore.get(i) ? madeBefore : made;
            for (int part = 0; part < entry.parts.size(); part++) {
                // the context eviction gives it: the next part, or the next exchange's first line (nextInWindow)
                Passage after = part + 1 < entry.parts.size() ? entry.parts.get(part + 1).firstPassage()
                        : i + 1 < exchanges.size() ? exchanges.get(i + 1).firstLine : null;
                entry.parts.get(part).changedCrystals(scope, source, after, into);
            }
            handed.put(entry.parts.get(0).id, entry.taken);
        }
        settled.clear();
        settled.addAll(exchanges);
        if (!handOver) {
            return;
        }
        if (!made.isEmpty()) {
            crystals.add(made);
        }
        if (!handed.equals(atPause)) {
            atPause = Map.copyOf(handed);
            context.changed();
        }
    }

    /**
     * The exchanges (each part) made at a pause whose first message the window still holds; after a restart, before
     * the window moves on, the window's exchanges the last pause handed over (their first parts).
     */
    @Override
    public Set<String> wholesInWindow(WindowMessages window) {
        if (settled.isEmpty() && atPause.isEmpty()) {
            return Set.of();
        }
        Set<String> wholes = new HashSet<>();
        for (Settled entry : settled) {
            if (holds(window, entry)) {
                entry.parts.forEach(part -> wholes.add(part.wholeId()));
            }
        }
        if (!tracked) {
            ZoneId zone = context.clock().getZone();
            for (int i = 0; i < window.size(); i++) {
                Instant added = window.added(i);
                if (window.message(i) instanceof UserMessage) {
                    String id = id(added, line(window.message(i), added, zone));
                    if (atPause.containsKey(id)) {
                        wholes.add(id);
                    }
                }
            }
        }
        return wholes;
    }

    /** Whether the window holds the exchange's first message (not when it was cleared since the pause). */
    private static boolean holds(WindowMessages window, Settled entry) {
        for (int i = 0; i < window.size(); i++) {
            if (window.message(i) == entry.first) {
                return window.added(i).equals(entry.added);
            }
        }
        return false;
    }

    /** The window as it was before an eviction: the evicted messages, then those left. */
    private record Before(List<EvictedMessage> evicted, WindowMessages left) implements WindowMessages {

        @Override
        public int size() {
            return evicted.size() + left.size();
        }

        @Override
        public ChatMessage message(int index) {
            return index < evicted.size() ? evicted.get(index).message() : left.message(index - evicted.size());
        }

        @Override
        public Instant added(int index) {
            return index < evicted.size() ? evicted.get(index).added() : left.added(index - evicted.size());
        }
    }

    /** The exchange made at a pause that starts with {@code first} added at {@code added}, or null. */
    private Settled findSettled(ChatMessage first, Instant added) {
        for (Settled entry : settled) {
            if (entry.first == first && entry.added.equals(added)) {
                return entry;
            }
        }
        return null;
    }

    /** {@link #findSettled}, removing it and those made before it (they left the window). */
    private Settled takeSettled(ChatMessage first, Instant added) {
        Settled found = findSettled(first, added);
        if (found != null) {
            settled.subList(0, settled.indexOf(found) + 1).clear();
        }
        return found;
    }

    /**
     * An exchange of the window made into crystals at a pause: its first message (by identity) and when it was added,
     * the exchange's parts, and how many of the window's messages it took. Guarded by the thread's lock.
     */
    private static final class Settled {
        private final ChatMessage first;
        private final Instant added;
        /** The first passage of the first line, the context of the exchange before while this one is in the window. */
        private final Passage firstLine;
        private final List<Exchange> parts = new ArrayList<>();
        private int taken;

        Settled(ChatMessage first, Instant added, Exchange exchange, Passage firstLine) {
            this.first = first;
            this.added = added;
            this.firstLine = firstLine;
            parts.add(exchange);
        }

        /** The last part: the one eviction continues. */
        Exchange last() {
            return parts.get(parts.size() - 1);
        }
    }

    /**
     * The first passage of the first exchange that starts in the window (the turn after the evicted ones), or null.
     * Made once per message.
     */
    private Passage nextInWindow(WindowMessages window, ZoneId zone) {
        int first = 0;
        while (first < window.size() && !(window.message(first) instanceof UserMessage)) {
            first++;
        }
        if (first == window.size()) {
            return null;
        }
        ChatMessage message = window.message(first);
        Instant added = window.added(first);
        // eviction goes a message at a time: the same next exchange is met again until it leaves
        if (next == null || next.message() != message || !next.added().equals(added)) {
            Line line = line(message, added, zone);
            next = new NextPassage(message, added,
                    line == null ? null : new Passage(line.passages().get(0), added, null, false, false));
        }
        return next.passage();
    }

    /** The first passage of the window's first exchange (null: none), as made for the message added at that instant. */
    private record NextPassage(ChatMessage message, Instant added, Passage passage) {
    }

    private String id(Instant added, Line firstLine) {
        // the line's start is enough to tell exchanges of one thread and millisecond apart; hashing all of it
        // (up to 1,500 characters) was a third of what making a past turn cost
        String text = firstLine == null ? "" : firstLine.label() + ": " + firstLine.text();
        String start = text.length() > ID_LINE_CHARS ? text.substring(0, ID_LINE_CHARS) : text;
        return CrystalIds.of("turn", scope, context.key().thread(), Long.toString(added.toEpochMilli()), start);
    }

    /** The message's line, or null for a message without text of its own (a tool request, a system message). */
    Line line(ChatMessage message, Instant added, ZoneId zone) {
        LocalDate day = LocalDate.ofInstant(added, zone);
        if (message instanceof UserMessage user) {
            String text = MessageText.said(user);
            String label = user.name() == null || user.name().isBlank() ? "user"
                    : "user " + oneLine(user.name(), Provenance.NAME_CHARS);
            return new Line(label, text.isBlank() ? "(no text)" : cut(text, MAX_MESSAGE_CHARS), added, day);
        }
        if (message instanceof AiMessage ai && ai.text() != null && !ai.text().isBlank()) {
            return new Line(ANSWER, cut(ai.text(), MAX_MESSAGE_CHARS), added, day);
        }
        if (message instanceof ToolExecutionResultMessage result && !context.isMemoryToolResult(result)) {
            String text = MessageText.of(result);
            if (!text.isBlank()) {
                return new Line("tool " + oneLine(String.valueOf(result.toolName()), Provenance.NAME_CHARS),
                        oneLine(text, text.length() <= TOOL_RESULT_CHARS ? TOOL_RESULT_CHARS : TOOL_EXCERPT_CHARS),
                        added, day);
            }
        }
        return null;
    }

    /** {@code text} cut at {@code max} characters, marked with an ellipsis where it was cut. */
    private static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }

    /**
     * A message as a line of an exchange: its label ({@code user}, {@code user <name>}, {@code assistant},
     * {@code tool <name>}), its text (not folded yet), when it was added, that day in the clock's zone, and the line as
     * passages of its own (each beginning with the label), made once.
     */
    static final class Line {
        private final String label;
        private final String text;
        private final Instant added;
        private final LocalDate day;
        private final List<String> passages;
        /** The {@link Passages#size} of the last passage, for packing. */
        private final int lastSize;
        private final boolean[] unembedded;

        Line(String label, String text, Instant added, LocalDate day) {
            this.label = label;
            this.text = text;
            this.added = added;
            this.day = day;
            String prefix = label + ": ";
            int prefixSize = Passages.size(prefix);
            Passages.Pieces pieces = Passages.piecesOf(text, Passages.MAX_SIZE - prefixSize);
            List<String> cut = new ArrayList<>(pieces.texts().size());
            for (String piece : pieces.texts()) {
                cut.add(prefix + piece);
            }
            this.passages = cut.isEmpty() ? List.of(prefix + "(no text)") : List.copyOf(cut);
            this.lastSize = cut.isEmpty() ? Passages.size(passages.get(0)) : prefixSize + pieces.lastSize();
            this.unembedded = unembedded(passages, prefix.length(), label.equals(ANSWER));
        }

        /**
         * Of a line's pieces, the ones without a vector: code ({@link FencedCode}), and an answer's pieces but one.
         * The first piece that is not code is always embedded (the first piece when all are), so that every message
         * has a vector that stands for it.
         */
        private static boolean[] unembedded(List<String> pieces, int prefix, boolean answer) {
            if (pieces.size() == 1) {
                return null; // packed with other lines, or a passage of its own: embedded either way
            }
            boolean[] code = FencedCode.of(pieces, prefix);
            int embedded = 0;
            while (code != null && embedded < pieces.size() && code[embedded]) {
                embedded++;
            }
            embedded = embedded == pieces.size() ? 0 : embedded;
            boolean[] unembedded = new boolean[pieces.size()];
            for (int i = 0; i < pieces.size(); i++) {
                unembedded[i] = i != embedded && (answer || code != null && code[i]);
            }
            return unembedded;
        }

        /** @return whether piece {@code i} gets no vector ({@link #unembedded(List, int, boolean)}) */
        boolean unembedded(int i) {
            return unembedded != null && unembedded[i];
        }

        String label() {
            return label;
        }

        String text() {
            return text;
        }

        Instant added() {
            return added;
        }

        LocalDate day() {
            return day;
        }

        /** The {@link Passages#size} of its last passage. */
        int lastSize() {
            return lastSize;
        }

        List<String> passages() {
            return passages;
        }
    }

    /** {@code text} with every run of white space (line breaks included) as one space, cut to {@code max} characters. */
    static String oneLine(String text, int max) {
        int begin = 0;
        int end = text.length();
        while (begin < end && Character.isWhitespace(text.charAt(begin))) {
            begin++;
        }
        while (end > begin && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        // most messages and short results are one line already: taken as they are, not copied a run at a time
        if (end - begin <= max && Passages.isFolded(text, begin, end)) {
            return text.substring(begin, end);
        }
        if (end - begin > max && Passages.isFolded(text, begin, begin + max + 1)) {
            return text.substring(begin, begin + max - 1) + "…"; // the first max + 1 stay as they are: cut, as below
        }
        // folds only as far as the line goes (a 20,000-character tool result gives 300 characters), a run of
        // non-space characters at a time
        StringBuilder folded = new StringBuilder(Math.min(end - begin, max + 1));
        int i = begin;
        while (i < end && folded.length() <= max) {
            int run = i;
            while (i < end && !Passages.isSpace(text.charAt(i))) {
                i++;
            }
            folded.append(text, run, Math.min(i, run + max + 1 - folded.length()));
            while (i < end && Passages.isSpace(text.charAt(i))) {
                i++;
            }
            if (i < end && folded.length() <= max) {
                folded.append(' ');
            }
        }
        if (folded.length() <= max) {
            return folded.toString();
        }
        folded.setLength(max - 1);
        return folded.append('…').toString();
    }

    private static boolean near(Instant a, Instant b) {
        return Duration.between(a, b).abs().compareTo(NEIGHBOUR_SPAN) <= 0;
    }

    /**
     * One passage as made: its text, time and context, whether it is a piece of a long message and nothing else
     * ({@code piece}: {@link Crystal#PIECE}), and whether such a piece gets no vector ({@code keywordsOnly}:
     * {@link Line#unembedded(int)}).
     */
    private record Passage(String text, Instant time, String context, boolean keywordsOnly, boolean piece) {
    }

    /** One exchange (or a continuation of a long one) as it becomes crystals. Guarded by the thread's lock. */
    private static final class Exchange {
        private final String id;
        private final Instant time;
        private final int part;
        private final List<Line> lines = new ArrayList<>();
        /** The last passage of the exchange before, or null. */
        private final Passage before;
        /** The passages' texts and times; null when lines were added since they were packed (see passages()). */
        private List<Passage> passages = List.of();
        /** What was handed to the store, by passage: remade passages equal to it are not handed over again. */
        private final List<Passage> handedOver = new ArrayList<>();

        Exchange(String id, Instant time, Exchange previous) {
            this(id, time, 0, previous);
        }

        private Exchange(String id, Instant time, int part, Exchange previous) {
            this.id = id;
            this.time = time;
            this.part = part;
            List<Passage> previousPassages = previous == null ? List.of() : previous.passages();
            this.before = previousPassages.isEmpty() ? null : previousPassages.get(previousPassages.size() - 1);
        }

        Exchange continuation() {
            return new Exchange(id, time, part + 1, this);
        }

        boolean full() {
            return passages().size() >= MAX_EXCHANGE_PASSAGES;
        }

        void add(Line line) {
            lines.add(line);
            passages = null; // packed when next needed: a whole turn leaves at once, packed once, not per line
        }

        Passage firstPassage() {
            List<Passage> packed = passages();
            return packed.isEmpty() ? null : packed.get(0);
        }

        private List<Passage> passages() {
            if (passages == null) {
                passages = pack(lines);
            }
            return passages;
        }

        /** Whole lines packed while they fit and share a day; a longer line as passages of its own. */
        private static List<Passage> pack(List<Line> lines) {
            List<Passage> packed = new ArrayList<>();
            StringBuilder current = null;
            Line currentLine = null;
            boolean currentUnembedded = false;
            boolean currentPiece = false;
            int currentSize = 0;
            for (Line line : lines) {
                List<String> pieces = line.passages();
                // measured as Passages cuts: a line break is 1, as a character of Latin text
                if (pieces.size() == 1 && current != null && currentLine.day().equals(line.day())
                        && currentSize + 1 + line.lastSize() <= Passages.MAX_SIZE) {
                    current.append('\n').append(pieces.get(0));
                    currentSize += 1 + line.lastSize();
                    currentUnembedded = false; // another line's words: embedded
                    currentPiece = false;
                    continue;
                }
                if (current != null) {
                    packed.add(new Passage(current.toString(), currentLine.added(), null, currentUnembedded,
                            currentPiece));
                }
                for (int i = 0; i < pieces.size() - 1; i++) {
                    packed.add(new Passage(pieces.get(i), line.added(), null, line.unembedded(i), true));
                }
                String last = pieces.get(pieces.size() - 1);
                // room for the lines packed after it, so that it grows by no copy
                current = new StringBuilder(Math.max(last.length(), Passages.MAX_SIZE)).append(last);
                currentSize = line.lastSize();
                currentLine = line;
                currentUnembedded = pieces.size() > 1 && line.unembedded(pieces.size() - 1);
                currentPiece = pieces.size() > 1;
            }
            if (current != null) {
                packed.add(new Passage(current.toString(), currentLine.added(), null, currentUnembedded, currentPiece));
            }
            return packed;
        }

        /** The id of this part as a whole: its passages' ids without the {@code #n}. */
        String wholeId() {
            return part == 0 ? id : id + "-" + part;
        }

        /**
         * Adds to {@code made} the crystals of the passages that are new or changed since last handed over; each
         * passage's context is the passage before and after it said within {@link #NEIGHBOUR_SPAN} of it.
         */
        void changedCrystals(String scope, String source, Passage after, List<Crystal> made) {
            String base = wholeId();
            List<Passage> packed = passages();
            for (int i = 0; i < packed.size(); i++) {
                Passage passage = packed.get(i);
                String previous = neighbour(i > 0 ? packed.get(i - 1) : before, passage);
                String following = neighbour(i + 1 < packed.size() ? packed.get(i + 1) : after, passage);
                String context = previous == null ? following : following == null ? previous
                        : previous + "\n" + following;
                Passage made1 = new Passage(passage.text(), passage.time(), context, passage.keywordsOnly(),
                        passage.piece());
                if (i < handedOver.size() && handedOver.get(i).equals(made1)) {
                    continue;
                }
                if (i < handedOver.size()) {
                    handedOver.set(i, made1);
                } else {
                    handedOver.add(made1);
                }
                made.add(new Crystal(Passages.id(base, i), scope, CrystalKind.TURN, passage.time(), IMPORTANCE,
                        tags(passage), passage.text(), source, context));
            }
        }

        private static List<String> tags(Passage passage) {
            if (passage.piece()) {
                return passage.keywordsOnly() ? KEYWORDS_ONLY_PIECE_TAGS : PIECE_TAGS;
            }
            return passage.keywordsOnly() ? KEYWORDS_ONLY_TAGS : List.of();
        }

        private static String neighbour(Passage neighbour, Passage passage) {
            return neighbour != null && near(neighbour.time(), passage.time()) ? neighbour.text() : null;
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LayerScope scope() {
        return LayerScope.THREAD;
    }

    @Override
    public int order() {
        return 1_000;
    }

    @Override
    public int priority() {
        return 0;
    }

    @Override
    public LayerBudget budget() {
        return LayerBudget.of(0, 1);
    }

    @Override
    public String render(int maxChars) {
        return "";
    }

    /** Keeps what the last pause handed over of the window; the crystals are in the crystal store. */
    @Override
    public JsonNode snapshot() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        if (!atPause.isEmpty()) {
            ObjectNode handed = node.putObject(AT_PAUSE);
            atPause.forEach(handed::put);
        }
        return node;
    }

    @Override
    public void restore(JsonNode snapshot) {
        JsonNode handed = snapshot == null ? null : snapshot.get(AT_PAUSE);
        Map<String, Integer> read = new LinkedHashMap<>();
        if (handed != null && handed.isObject()) {
            handed.fields().forEachRemaining(field -> {
                if (field.getValue().canConvertToInt()) {
                    read.put(field.getKey(), field.getValue().asInt());
                }
            });
        }
        atPause = Map.copyOf(read);
    }
}
