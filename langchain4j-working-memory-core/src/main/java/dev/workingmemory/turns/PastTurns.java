package dev.workingmemory.turns;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.internal.CrystalIds;
import dev.workingmemory.internal.Ensure;
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
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Past turns (issue 10): the messages that leave the message window become {@link CrystalKind#TURN} crystals in the
 * resource's scope, so that {@code memory_search} finds what the model no longer sees. Renders nothing.
 *
 * <p>One crystal per <em>exchange</em>: a user message and the assistant texts and tool results that follow it (tool
 * requests are left out; a tool result by an excerpt of {@value #TOOL_EXCERPT_CHARS} characters, except the results
 * of {@code memory_search}, which are copies of crystals already kept). Its text has one
 * line per message, {@code [2026-03-12] user: …}, {@code assistant: …}, {@code tool getWeather: …}, dated by the day
 * the message was added in the zone of the provider's clock (a line of the first line's day without its date, to
 * spend the search's token budget on text),
 * line breaks folded into spaces, a message cut at {@value #MAX_MESSAGE_CHARS} characters. Its time is when the user
 * message was added; its importance {@value #IMPORTANCE}. Its context (indexed with it, never returned) is the text of
 * the exchange before and of the one after (still in the window when this one leaves it) when they were said within
 * six hours of it, so that a question about a fact spread over two turns still finds it.
 *
 * <p>An exchange that leaves the window in parts (a turn longer than the whole window) is one crystal replaced as it
 * grows (same id); past {@value #MAX_CRYSTAL_CHARS} characters it continues in a next crystal. Messages whose user
 * message left before the memory was loaded (a restart) form an exchange of their own.
 *
 * <p>Nothing here waits for embedding: the crystals are only handed to {@link CrystalStore#add}, which queues them.
 *
 * <p>Thread-safe: called holding the thread's lock (it keeps the last exchange only, to continue it).
 */
public final class PastTurns implements MemoryLayer {

    public static final String NAME = "past_turns";
    static final int TOOL_EXCERPT_CHARS = 300;
    /** How much of an exchange's first line its id is made of. */
    static final int ID_LINE_CHARS = 200;
    static final int MAX_MESSAGE_CHARS = 1_500;
    static final int MAX_CRYSTAL_CHARS = 3_000;
    static final double IMPORTANCE = 0.5;
    static final Duration NEIGHBOUR_SPAN = Duration.ofHours(6);
    /** The search tool's fixed name (DESIGN.md): its results are crystals already. */
    private static final String MEMORY_SEARCH = "memory_search";

    private final LayerContext context;
    private final CrystalStore crystals;
    private final String scope;
    /** The exchange that left the window last: continued by evicted messages that follow it, else the previous one. */
    private Exchange last;
    /** The lines of the window's first exchange, made for the context of the last crystal: it is the next to leave. */
    private final Map<ChatMessage, Line> nextLines = new IdentityHashMap<>();
    /** The window's first exchange as made from {@link #nextLines}. */
    private Exchange nextExchange;
    /** The date prefix of the last line made: most lines share it. */
    private DatePrefix datePrefix;

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
        ZoneId zone = context.clock().getZone();
        List<Exchange> touched = new ArrayList<>();
        for (EvictedMessage evicted : messages) {
            ChatMessage message = evicted.message();
            String line = keptLine(message, evicted.added(), zone);
            if (message instanceof UserMessage) {
                last = new Exchange(id(evicted.added(), line), evicted.added(), last);
            } else if (line == null) {
                continue;
            } else if (last == null) {
                last = new Exchange(id(evicted.added(), line), evicted.added(), null);
            } else if (!last.fits(line)) {
                last = last.continuation();
            }
            last.append(line);
            if (touched.isEmpty() || touched.get(touched.size() - 1) != last) {
                touched.add(last);
            }
        }
        if (touched.isEmpty()) {
            return;
        }
        List<Crystal> made = new ArrayList<>(touched.size());
        for (int i = 0; i < touched.size(); i++) {
            Exchange exchange = touched.get(i);
            Exchange next = i + 1 < touched.size() ? touched.get(i + 1) : nextInWindow(window, zone);
            made.add(exchange.crystal(scope, "thread:" + context.key().thread(), next));
        }
        crystals.add(made);
    }

    /**
     * The first exchange that starts in the window (the turn after the evicted ones), or null. Its lines are kept
     * for when it leaves the window.
     */
    private Exchange nextInWindow(WindowMessages window, ZoneId zone) {
        int first = 0;
        while (first < window.size() && !(window.message(first) instanceof UserMessage)) {
            first++;
        }
        int end = first + 1;
        while (end < window.size() && !(window.message(end) instanceof UserMessage)) {
            end++;
        }
        if (first == window.size()) {
            return null;
        }
        // eviction goes a message at a time: the same next exchange is met again until it leaves
        if (nextExchange != null && nextLines.size() == end - first) {
            boolean same = true;
            for (int i = first; i < end && same; i++) {
                Line kept = nextLines.get(window.message(i));
                same = kept != null && kept.added().equals(window.added(i));
            }
            if (same) {
                return nextExchange;
            }
        }
        Map<ChatMessage, Line> lines = new IdentityHashMap<>();
        Exchange next = new Exchange("next", window.added(first), null);
        for (int i = first; i < end; i++) {
            ChatMessage message = window.message(i);
            String line = keptLine(message, window.added(i), zone);
            lines.put(message, new Line(window.added(i), line));
            if (line != null && next.fits(line)) {
                next.append(line);
            }
        }
        nextLines.clear();
        nextLines.putAll(lines);
        nextExchange = next;
        return next;
    }

    /** The message's line as made for the window's next exchange, else made now. */
    private String keptLine(ChatMessage message, Instant added, ZoneId zone) {
        Line kept = nextLines.get(message);
        return kept != null && kept.added().equals(added) ? kept.text() : line(message, added, zone);
    }

    private String id(Instant added, String firstLine) {
        // the line's start is enough to tell exchanges of one thread and millisecond apart; hashing all of it
        // (up to 1,500 characters) was a third of what making a past turn cost
        String start = firstLine.length() > ID_LINE_CHARS ? firstLine.substring(0, ID_LINE_CHARS) : firstLine;
        return CrystalIds.of("turn", scope, context.key().thread(), Long.toString(added.toEpochMilli()), start);
    }

    /** The message's line, or null for a message without text of its own (a tool request, a system message). */
    String line(ChatMessage message, Instant added, ZoneId zone) {
        String date = datePrefix(added, zone);
        if (message instanceof UserMessage user) {
            String text = userText(user);
            return date + "user: " + (text.isBlank() ? "(no text)" : oneLine(text, MAX_MESSAGE_CHARS));
        }
        if (message instanceof AiMessage ai && ai.text() != null && !ai.text().isBlank()) {
            return date + "assistant: " + oneLine(ai.text(), MAX_MESSAGE_CHARS);
        }
        if (message instanceof ToolExecutionResultMessage result && result.text() != null && !result.text().isBlank()
                && !MEMORY_SEARCH.equals(result.toolName())) {
            return date + "tool " + oneLine(String.valueOf(result.toolName()), 100) + ": "
                    + oneLine(result.text(), TOOL_EXCERPT_CHARS);
        }
        return null;
    }

    /** A message's line (null: none) as made when it was added at that instant. */
    private record Line(Instant added, String text) {
    }

    /** {@code [2026-03-12] } for the day of {@code added} in the zone; the last one made is reused within its day. */
    private String datePrefix(Instant added, ZoneId zone) {
        if (datePrefix == null || !datePrefix.holds(added, zone)) {
            datePrefix = DatePrefix.of(added, zone);
        }
        return datePrefix.text();
    }

    /** A day's line prefix, the zone and the epoch seconds [start, end) it is the day of. */
    private record DatePrefix(String text, ZoneId zone, long start, long end) {

        static DatePrefix of(Instant instant, ZoneId zone) {
            LocalDate day = LocalDate.ofInstant(instant, zone);
            return new DatePrefix("[" + day + "] ", zone, day.atStartOfDay(zone).toEpochSecond(),
                    day.plusDays(1).atStartOfDay(zone).toEpochSecond());
        }

        boolean holds(Instant instant, ZoneId zone) {
            return zone.equals(this.zone) && instant.getEpochSecond() >= start && instant.getEpochSecond() < end;
        }
    }

    private static String userText(UserMessage user) {
        StringBuilder text = new StringBuilder();
        for (Content content : user.contents()) {
            if (content instanceof TextContent part) {
                text.append(text.isEmpty() ? "" : " ").append(part.text());
            }
        }
        return text.toString();
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
        // folds only as far as the line goes (a 20,000-character tool result gives 300 characters), a run of
        // non-space characters at a time
        StringBuilder folded = new StringBuilder(Math.min(end - begin, max + 1));
        int i = begin;
        while (i < end && folded.length() <= max) {
            int run = i;
            while (i < end && !isRegexSpace(text.charAt(i))) {
                i++;
            }
            folded.append(text, run, Math.min(i, run + max + 1 - folded.length()));
            while (i < end && isRegexSpace(text.charAt(i))) {
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

    /** The white space that is folded: what the pattern {@code \s} matches (ASCII only). */
    private static boolean isRegexSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
    }

    /** One exchange (or a continuation of a long one) as it becomes a crystal. Guarded by the thread's lock. */
    private static final class Exchange {
        private final String id;
        private final Instant time;
        private final int part;
        private final StringBuilder text = new StringBuilder();
        /** The text of the exchange before, when it was said within {@link #NEIGHBOUR_SPAN} of this one; else null. */
        private final String previous;

        Exchange(String id, Instant time, Exchange before) {
            this(id, time, 0, before);
        }

        private Exchange(String id, Instant time, int part, Exchange before) {
            this.id = id;
            this.time = time;
            this.part = part;
            this.previous = near(before, time) ? before.text.toString() : null;
        }

        Exchange continuation() {
            return new Exchange(id, time, part + 1, this);
        }

        boolean fits(String line) {
            return text.length() + 1 + line.length() <= MAX_CRYSTAL_CHARS;
        }

        /** Appends {@code line}, without its date when the exchange's first line has that date (fewer tokens per hit). */
        void append(String line) {
            int from = 0;
            if (!text.isEmpty()) {
                int dateEnd = line.indexOf("] ") + 2;
                if (dateEnd > 1 && text.length() >= dateEnd && sameStart(text, line, dateEnd)) {
                    from = dateEnd;
                }
                text.append('\n');
            }
            text.append(line, from, line.length());
        }

        private static boolean sameStart(CharSequence a, String b, int length) {
            for (int i = 0; i < length; i++) {
                if (a.charAt(i) != b.charAt(i)) {
                    return false;
                }
            }
            return true;
        }

        Crystal crystal(String scope, String source, Exchange next) {
            text.trimToSize(); // kept while the memory is cached, to continue it or as the next one's context
            String after = near(next, time) ? next.text.toString() : null;
            String context = previous == null ? after : after == null ? previous : previous + "\n" + after;
            return new Crystal(part == 0 ? id : id + "-" + part, scope, CrystalKind.TURN, time, IMPORTANCE, List.of(),
                    text.toString(), source, context);
        }

        private static boolean near(Exchange other, Instant time) {
            if (other == null || other.text.isEmpty()) {
                return false;
            }
            long seconds = Math.abs(other.time.getEpochSecond() - time.getEpochSecond());
            if (seconds > NEIGHBOUR_SPAN.getSeconds() + 1) {
                return false; // also keeps the nanoseconds below from overflowing
            }
            long nanos = (other.time.getEpochSecond() - time.getEpochSecond()) * 1_000_000_000L
                    + other.time.getNano() - time.getNano();
            return Math.abs(nanos) <= NEIGHBOUR_SPAN.toNanos();
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

    /** Keeps nothing: the crystals are in the crystal store. */
    @Override
    public JsonNode snapshot() {
        return JsonNodeFactory.instance.objectNode();
    }

    @Override
    public void restore(JsonNode snapshot) {
        // nothing: see snapshot()
    }
}
