package dev.workingmemory.slots;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.workingmemory.MemoryToolNames;
import dev.workingmemory.internal.EnglishNouns;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.layer.LayerBudget;
import dev.workingmemory.layer.LayerContext;
import dev.workingmemory.layer.LayerScope;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.layer.MemoryLayerFactory;
import dev.workingmemory.render.BlockText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The session (seed 003, tier 2): typed slots that keep their newest items, and a pool of other items that decays
 * unless later messages mention them. Rendered as {@code <session>}:
 * <pre>
 * &lt;session&gt;
 * errors (2/3):
 * - UserService.java:42: cannot find symbol (symbol: method findByEmail(String))
 * - ...
 * decisions (1/5):
 * - Let's use PostgreSQL for the order store
 * pool (top 5 of 12):
 * - src/main/java/com/acme/UserService.java
 * &lt;/session&gt;
 * </pre>
 * Slots appear in their configured order, newest item first, empty ones left out; then the best pool items by
 * score. When the block's budget is short, items are cut from the end (the pool first) and the cut is marked.
 *
 * <p><b>Slots.</b> Each keeps at most its limit; a new item past it drops the oldest. An item equal to one already in
 * the slot (ignoring case, spacing and trailing punctuation) is not added twice: it moves to the front.
 *
 * <p><b>Pool.</b> Each message the memory observes ages every pool item by one and counts a mention for each item it
 * mentions ({@link Mentions}: a file path, file name or identifier of the item appearing again). An item scores
 * {@code exp(-gamma * age) + mentions}; items under the threshold are dropped, and past the pool's capacity the
 * lowest-scoring. A repeated item starts again at age 0. An item already in a slot is not added to the pool, and an
 * item added to a slot leaves the pool.
 *
 * <p><b>One file, one pool item.</b> A file's path and its shorter forms — its bare name, a relative path, an absolute
 * path ending in the same relative path ({@code report.py}, {@code scripts/report.py},
 * {@code /home/dev/app/scripts/report.py}) — are one item, shown in the most specific form seen, and a mention of any
 * form is the item's ({@link Mentions}). Forms that cannot be one file ({@code scripts/report.py},
 * {@code tests/report.py}) are two items. A shorter form of two pooled files ({@code report.py} then) could be either:
 * it adds no item (a third line for one of the two) and each of them counts as named again, as a message naming
 * {@code report.py} mentions both.
 *
 * <p><b>Extraction.</b> Once the session acts for the memory ({@link SessionSlotsConfig#activation()}: by default from
 * the first tool result that is a coding agent's output, {@link SessionActivation}), every message goes through the
 * configured {@link SessionExtractor}; what it finds is added (most important last, so it ends up first) and saved
 * behind the turn. Until then nothing is extracted; the last {@value #BACKLOG} messages are kept (not saved) and
 * extracted when it starts to act. The results of the memory's own tools ({@code read_tool_output},
 * {@code core_memory_read}, ...) are never extracted: their errors are the memory's, not the build's. A message is
 * read as far as the memory analyses ({@link LayerContext#maxAnalyzedChars()}).
 *
 * <p><b>A todo done.</b> A todo goes when a user's or the model's message says its task is done
 * ({@link SessionExtractor#done}; by default "the README's export section is updated", "done with the
 * pagination", "I fixed …", not "don't forget to update the README", "is the README done?", "not done yet"). There is
 * no done state in seed 003's slots: a done todo is no todo. Todos the model added go that way too, also before the
 * session acts.
 *
 * <p><b>A call run again.</b> The items a tool result gave are its call's: the tool's name and arguments
 * ({@link ToolRuns}). When the same call runs again, what it says now replaces what it said: the errors of
 * {@code mvn -q compile} go when it passes, and a test run that fails otherwise shows only its new failures. Items the
 * model adds and items of other calls stay.
 *
 * <p>{@link #add}, {@link #clear}, {@link #clearSlot} and {@link #remove}, which tools call, are saved before they
 * return, whether the session acts or not.
 *
 * <p>Thread-safe: every method holds the memory's lock.
 */
public final class SessionSlots implements MemoryLayer {

    /** The layer's name: its tag in the block and its key in snapshots. */
    public static final String NAME = "session";
    /** The name that {@link #add}, {@link #clearSlot} and {@link #items} accept for the pool. */
    public static final String POOL = "pool";
    private static final Logger log = LoggerFactory.getLogger(SessionSlots.class);
    private static final int FORMAT_VERSION = 1;
    /** The messages kept while the session waits, extracted when it starts to act. */
    static final int BACKLOG = 8;

    private final LayerContext context;
    private final SessionSlotsConfig config;
    /** Per slot, newest first. */
    private final Map<String, LinkedList<String>> slots = new LinkedHashMap<>();
    /** In the order items came. */
    private final List<Pooled> pool = new ArrayList<>();
    /** Whether the session acts (extracts) for this memory; saved with the thread. */
    private boolean active;
    /**
     * The last messages seen while the session waited, as analysed, oldest first; not saved. Kept once it acts, so that
     * the activating message, run again on reloaded state after a conflict, extracts the same items.
     */
    private final ArrayDeque<Seen> backlog = new ArrayDeque<>(BACKLOG);
    /** Which call of a tool gave which item: the same call run again replaces what it said ({@link ToolRuns}). */
    private final ToolRuns runs = new ToolRuns();

    /** A message as analysed, with the tool request it answers ({@code null} for none or one not seen). */
    private record Seen(ChatMessage message, ToolExecutionRequest request) {
    }

    private SessionSlots(LayerContext context, SessionSlotsConfig config) {
        this.context = Ensure.notNull(context, "context");
        this.config = Ensure.notNull(config, "config");
        config.slotLimits().keySet().forEach(slot -> slots.put(slot, new LinkedList<>()));
        this.active = config.activation().fromStart();
    }

    /** A factory of thread-scoped sessions with the slots, pool and activation of {@code config}. */
    public static MemoryLayerFactory factory(SessionSlotsConfig config) {
        Ensure.notNull(config, "config");
        return context -> new SessionSlots(context, config);
    }

    /**
     * What {@link #add} did.
     *
     * @param item     the item as stored (for a path of a file the pool holds, the form the pool shows)
     * @param repeated whether an equal item was there already (it moved to the front, or its age started again)
     * @param dropped  the items the slot dropped to stay within its limit, oldest last
     * @param size     the slot's (or the pool's) size afterwards
     * @param limit    the slot's limit, or the pool's capacity
     */
    public record Added(SessionItem item, boolean repeated, List<String> dropped, int size, int limit) {
    }

    /**
     * Adds {@code content} to {@code slot} ({@link #POOL} for the pool). Saved in the store when it returns.
     *
     * @throws IllegalArgumentException for an unknown slot, blank content, or content over
     *                                  {@link SessionSlotsConfig#maxItemChars()} (nothing changed)
     * @throws dev.workingmemory.store.WorkingMemoryStoreException when it could not be saved (nothing changed)
     */
    public Added add(String slot, String content) {
        Ensure.notNull(content, "content");
        String text = BlockText.clean(content).strip(); // as an extracted item is kept (Texts.item)
        Ensure.that(!text.isEmpty(), "The content is empty.");
        Ensure.that(text.length() <= config.maxItemChars(), "The content has " + text.length()
                + " chars, over the item limit of " + config.maxItemChars() + ".");
        requireSlotOrPool(slot);
        return context.writeDurably(() -> {
            Added added = put(slot, text);
            if (!POOL.equals(slot)) {
                runs.gave(slot, text, null); // the model's item: no run of a tool replaces it
            }
            context.changed();
            return added;
        });
    }

    /**
     * Empties every slot and the pool. Saved in the store when it returns.
     *
     * @return how many items were removed
     */
    public int clear() {
        return context.writeDurably(() -> {
            int removed = pool.size();
            pool.clear();
            for (List<String> items : slots.values()) {
                removed += items.size();
                items.clear();
            }
            if (removed > 0) {
                context.changed();
            }
            return removed;
        });
    }

    /**
     * Empties {@code slot} ({@link #POOL} for the pool). Saved in the store when it returns.
     *
     * @return how many items were removed
     * @throws IllegalArgumentException for an unknown slot
     */
    public int clearSlot(String slot) {
        requireSlotOrPool(slot);
        return context.writeDurably(() -> {
            int removed;
            if (POOL.equals(slot)) {
                removed = pool.size();
                pool.clear();
            } else {
                List<String> items = slots.get(slot);
                removed = items.size();
                items.clear();
            }
            if (removed > 0) {
                context.changed();
            }
            return removed;
        });
    }

    /**
     * Removes items by their content, from every slot and the pool. Items equal to {@code content} (ignoring case,
     * spacing and trailing punctuation) are removed, however many; when there is none, the one item that contains
     * {@code content} (compared the same way) is removed. Saved in the store when it returns.
     *
     * @return the removed items; empty when nothing matched
     * @throws IllegalArgumentException when {@code content} is blank, or matches no item exactly but is part of
     *                                  several (the message lists them; nothing changed)
     */
    public List<SessionItem> remove(String content) {
        Ensure.notNull(content, "content");
        String wanted = Texts.normalize(BlockText.clean(content));
        Ensure.that(!wanted.isEmpty(), "The content to remove is empty.");
        return context.writeDurably(() -> {
            List<SessionItem> exact = matching(item -> Texts.normalize(item).equals(wanted));
            List<SessionItem> removed = exact.isEmpty() ? matching(item -> Texts.normalize(item).contains(wanted)) : exact;
            if (removed.size() > 1 && exact.isEmpty()) {
                throw new IllegalArgumentException("'" + content.strip() + "' is part of " + removed.size() + " items: "
                        + describe(removed) + ". Give the whole text of the one to remove.");
            }
            for (SessionItem item : removed) {
                if (POOL.equals(item.slot())) {
                    pool.removeIf(p -> p.content.equals(item.content()));
                } else {
                    slots.get(item.slot()).remove(item.content());
                }
            }
            if (!removed.isEmpty()) {
                context.changed();
            }
            return removed;
        });
    }

    /** The items of {@code slot}, newest first, or of the {@link #POOL}, best first. */
    public List<String> items(String slot) {
        requireSlotOrPool(slot);
        return context.read(() -> POOL.equals(slot)
                ? ranked().stream().map(p -> p.content).toList()
                : List.copyOf(slots.get(slot)));
    }

    /** The pool, best first, with each item's age, mentions and score. */
    public List<PoolItem> pool() {
        return context.read(() -> ranked().stream()
                .map(p -> new PoolItem(p.content, p.age, p.mentions, score(p))).toList());
    }

    /** The configured slots, in rendering order ({@link #POOL} not included). */
    public List<String> slotNames() {
        return List.copyOf(config.slotLimits().keySet());
    }

    /**
     * The slot, or {@link #POOL}, that a name given by a caller (a tool call) means: matched ignoring case and
     * surrounding spaces, the plural the block shows ({@code errors}, {@code dependencies}) accepted.
     */
    public Optional<String> slotFor(String name) {
        if (name == null) {
            return Optional.empty();
        }
        String wanted = name.strip().toLowerCase(Locale.ROOT);
        if (POOL.equals(wanted) && config.poolCapacity() > 0 || config.slotLimits().containsKey(wanted)) {
            return Optional.of(wanted);
        }
        return config.slotLimits().keySet().stream().filter(slot -> EnglishNouns.plural(slot).equals(wanted)).findFirst();
    }

    /** How many items {@code slot} keeps, or the pool's capacity for {@link #POOL}. */
    /**
     * How many items {@code slot} keeps: its configured limit, or the pool's capacity for {@link #POOL}.
     *
     * @throws IllegalArgumentException for an unknown slot
     */
    public int limit(String slot) {
        requireSlotOrPool(slot);
        return POOL.equals(slot) ? config.poolCapacity() : config.slotLimits().get(slot);
    }

    /** The slots, pool and activation this session was created with. */
    public SessionSlotsConfig config() {
        return config;
    }

    /** Whether the session extracts for this memory: it had its evidence, or acts from the start. */
    @Override
    public boolean active() {
        return context.read(() -> active);
    }

    @Override
    public void onMessage(ChatMessage message) {
        if (message == null || message instanceof SystemMessage) {
            return;
        }
        ToolExecutionRequest request = null;
        if (message instanceof AiMessage ai) {
            runs.requested(ai);
        } else if (message instanceof ToolExecutionResultMessage result) {
            request = runs.requestOf(result); // a memory tool's too: its request is answered
        }
        if (context.isMemoryToolResult(message)) {
            return;
        }
        Seen seen = new Seen(Texts.analysed(message, context.maxAnalyzedChars()), request);
        List<Seen> extracted;
        if (active) {
            extracted = List.of(seen);
        } else if (isEvidence(seen.message())) {
            extracted = new ArrayList<>(backlog.size() + 1);
            extracted.addAll(backlog);
            extracted.add(seen);
        } else {
            if (backlog.size() == BACKLOG) {
                backlog.removeFirst();
            }
            backlog.addLast(seen);
            if (!pool.isEmpty() || holdsSlotItems()) { // items a tool added age, and go when done, as in an acting session
                String text = pool.isEmpty() ? "" : Texts.of(seen.message());
                context.write(() -> {
                    if (observe(text) | complete(seen.message())) {
                        runs.retainOnly(slots);
                        context.changed();
                    }
                    return null;
                });
            }
            return;
        }
        List<List<SessionItem>> found = new ArrayList<>(extracted.size());
        List<String> calls = new ArrayList<>(extracted.size());
        for (Seen each : extracted) {
            found.add(extract(each.message()));
            calls.add(ToolRuns.call(each.request()));
        }
        String text = pool.isEmpty() ? "" : Texts.of(seen.message());
        context.write(() -> {
            boolean changed = !active;
            active = true;
            changed |= observe(text);
            for (int i = 0; i < found.size(); i++) {
                changed |= complete(extracted.get(i).message());
                changed |= replaceRun(calls.get(i));
                changed |= put(found.get(i), calls.get(i));
            }
            if (changed) {
                runs.retainOnly(slots);
                context.changed();
            }
            return null;
        });
    }

    /** Removes the items the last run of {@code call} gave: what it says now replaces them. */
    private boolean replaceRun(String call) {
        if (call == null) {
            return false;
        }
        boolean changed = false;
        for (Map.Entry<String, LinkedList<String>> slot : slots.entrySet()) {
            changed |= slot.getValue().removeIf(item -> runs.gaveBy(slot.getKey(), item, call));
        }
        return changed;
    }

    private boolean holdsSlotItems() {
        for (List<String> items : slots.values()) {
            if (!items.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Removes the slot items whose task a user's or the model's message says is done ({@link SessionExtractor#done}). */
    private boolean complete(ChatMessage message) {
        if (!(message instanceof UserMessage || message instanceof AiMessage) || !holdsSlotItems()) {
            return false;
        }
        List<SessionItem> held = new ArrayList<>();
        slots.forEach((slot, items) -> items.forEach(item -> held.add(new SessionItem(slot, item))));
        ranked().forEach(p -> held.add(new SessionItem(POOL, p.content)));
        List<SessionItem> done;
        try {
            done = config.extractor().done(message, List.copyOf(held));
        } catch (RuntimeException e) {
            log.warn("Session extractor failed to find what is done in a {} message of {}", message.type(),
                    context.key(), e);
            return false;
        }
        boolean changed = false;
        for (SessionItem item : done == null ? List.<SessionItem>of() : done) {
            if (item != null && POOL.equals(item.slot())) {
                changed |= pool.removeIf(p -> p.content.equals(item.content()));
            } else if (item != null && slots.containsKey(item.slot())) {
                changed |= slots.get(item.slot()).remove(item.content());
            }
        }
        return changed;
    }

    private boolean isEvidence(ChatMessage message) {
        try {
            return config.activation().isEvidence(message);
        } catch (RuntimeException e) {
            log.warn("Session activation rule failed on a {} message of {}", message.type(), context.key(), e);
            return false;
        }
    }

    private List<SessionItem> extract(ChatMessage message) {
        try {
            List<SessionItem> found = config.extractor().extract(message);
            return found == null ? List.of() : found;
        } catch (RuntimeException e) {
            log.warn("Session extractor failed on a {} message of {}", message.type(), context.key(), e);
            return List.of();
        }
    }

    /**
     * Adds what one message yielded, most important first (added last, so that it ends up first).
     *
     * @param call the tool call whose result it was, or {@code null}
     */
    private boolean put(List<SessionItem> items, String call) {
        boolean changed = false;
        for (int i = items.size() - 1; i >= 0; i--) {
            SessionItem item = items.get(i);
            boolean toPool = POOL.equals(item == null ? null : item.slot()) && config.poolCapacity() > 0;
            if (item == null || !(toPool || slots.containsKey(item.slot()))) {
                continue;
            }
            String content = Texts.item(item.content(), config.maxItemChars());
            if (!content.isEmpty()) {
                put(item.slot(), content);
                if (!toPool) {
                    runs.gave(item.slot(), content, call);
                }
                changed = true;
            }
        }
        return changed;
    }

    /** Ages the pool by one message, counts the message's mentions and prunes. Returns whether the pool changed. */
    private boolean observe(String text) {
        if (pool.isEmpty()) {
            return false;
        }
        String lower = null; // only items without identifiers are matched in lower case: made once, when one needs it
        for (Pooled item : pool) {
            item.age++;
            Mentions mentions = item.mentionKeys();
            if (lower == null && mentions.byPhrase()) {
                lower = text.toLowerCase(Locale.ROOT);
            }
            if (!text.isEmpty() && mentions.in(text, lower)) {
                item.mentions++;
            }
        }
        pool.removeIf(item -> score(item) < config.pruneThreshold());
        return true;
    }

    private Added put(String slot, String content) {
        String key = Texts.normalize(content);
        if (POOL.equals(slot)) {
            return putInPool(content, key);
        }
        LinkedList<String> items = slots.get(slot);
        boolean repeated = items.removeIf(existing -> Texts.normalize(existing).equals(key));
        items.addFirst(content);
        List<String> dropped = new ArrayList<>(1);
        int limit = config.slotLimits().get(slot);
        while (items.size() > limit) {
            dropped.add(items.removeLast());
        }
        pool.removeIf(p -> p.key.equals(key));
        return new Added(new SessionItem(slot, content), repeated, dropped, items.size(), limit);
    }

    private Added putInPool(String content, String key) {
        SessionItem item = new SessionItem(POOL, content);
        for (List<String> items : slots.values()) {
            for (String existing : items) {
                if (Texts.normalize(existing).equals(key)) {
                    return new Added(item, true, List.of(), pool.size(), config.poolCapacity());
                }
            }
        }
        Pooled added = new Pooled(content, key, 0, 0);
        List<Pooled> same = sameItem(added);
        if (!same.isEmpty()) {
            if (same.size() > 1) {
                // a shorter form of several files: whichever it names is named again, and none is shown twice
                same.forEach(existing -> existing.age = 0);
                return new Added(item, true, List.of(), pool.size(), config.poolCapacity());
            }
            Pooled existing = same.get(0);
            existing.age = 0;
            existing.takeFormOf(added);
            return new Added(new SessionItem(POOL, existing.content), true, List.of(), pool.size(), config.poolCapacity());
        }
        pool.add(added);
        List<String> dropped = new ArrayList<>(1);
        while (pool.size() > config.poolCapacity()) {
            Pooled worst = pool.stream().min(leastRelevantFirst()).orElseThrow();
            pool.remove(worst);
            dropped.add(worst.content);
        }
        return new Added(item, false, dropped, pool.size(), config.poolCapacity());
    }

    /**
     * The pool items that are {@code item}: the same text, or, for a file's path, a path of the same file
     * ({@link FilePaths#sameFile}: {@code report.py}, {@code scripts/report.py}, an absolute path ending in it). Two
     * items when {@code item} is a shorter form of two files the pool holds ({@code report.py} beside
     * {@code scripts/report.py} and {@code tests/report.py}): the pool holds one item per file, so several items are
     * never the same file as each other.
     */
    private List<Pooled> sameItem(Pooled item) {
        List<Pooled> same = new ArrayList<>(1);
        for (Pooled existing : pool) {
            if (existing.key.equals(item.key)) {
                return List.of(existing);
            }
            if (item.path != null && existing.path != null && FilePaths.sameFile(item.path, existing.path)) {
                same.add(existing);
            }
        }
        return same;
    }

    /** Lowest score first, then the oldest: the order in which pool items go. */
    private Comparator<Pooled> leastRelevantFirst() {
        return Comparator.comparingDouble(this::score).thenComparingInt(p -> -p.age);
    }

    /** The pool best first: by score, then the youngest, then the newest. */
    private List<Pooled> ranked() {
        List<Pooled> ranked = new ArrayList<>(pool);
        java.util.Collections.reverse(ranked);
        ranked.sort(Comparator.comparingDouble(this::score).reversed().thenComparingInt(p -> p.age));
        return ranked;
    }

    private double score(Pooled item) {
        return Math.exp(-config.decayRate() * item.age) + item.mentions;
    }

    private List<SessionItem> matching(java.util.function.Predicate<String> matches) {
        List<SessionItem> found = new ArrayList<>();
        slots.forEach((slot, items) -> items.stream().filter(matches).forEach(item -> found.add(new SessionItem(slot, item))));
        pool.stream().map(p -> p.content).filter(matches).forEach(item -> found.add(new SessionItem(POOL, item)));
        return found;
    }

    private static String describe(List<SessionItem> items) {
        List<String> shown = new ArrayList<>();
        for (SessionItem item : items.subList(0, Math.min(5, items.size()))) {
            shown.add(item.slot() + ": '" + item.content() + "'");
        }
        return String.join("; ", shown) + (items.size() > 5 ? "; ..." : "");
    }

    private void requireSlotOrPool(String slot) {
        boolean pool = POOL.equals(slot) && config.poolCapacity() > 0;
        if (slot == null || !(pool || config.slotLimits().containsKey(slot))) {
            throw new IllegalArgumentException("Unknown slot '" + slot + "'. Valid slots: " + validSlots());
        }
    }

    /** The slot names and {@code pool}, comma-separated, for messages. */
    public String validSlots() {
        List<String> names = new ArrayList<>(config.slotLimits().keySet());
        if (config.poolCapacity() > 0) {
            names.add(POOL);
        }
        return String.join(", ", names);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LayerScope scope() {
        return LayerScope.THREAD;
    }

    /** After the entities (40), before the scratchpad (60). */
    @Override
    public int order() {
        return 50;
    }

    /** Below entities (90) and core memory (80), above the scratchpad (40): a coding agent's errors and todos matter. */
    @Override
    public int priority() {
        return 70;
    }

    @Override
    public LayerBudget budget() {
        return config.budget();
    }

    /**
     * Clearing errors and removing items, once the session holds them (extracted or added by the model), with the tools
     * the model has.
     */
    @Override
    public String relief() {
        List<String> errors = slots.get("error");
        boolean anyItem = !pool.isEmpty() || slots.values().stream().anyMatch(items -> !items.isEmpty());
        List<String> clauses = new ArrayList<>(2);
        if (errors != null && !errors.isEmpty() && context.offersTool(MemoryToolNames.WORKING_MEMORY_CLEAR_SLOT)) {
            clauses.add("clear resolved errors (" + MemoryToolNames.WORKING_MEMORY_CLEAR_SLOT + ")");
        }
        if (anyItem && context.offersTool(MemoryToolNames.WORKING_MEMORY_REMOVE)) {
            clauses.add((clauses.isEmpty() ? "remove " : "") + "stale session items ("
                    + MemoryToolNames.WORKING_MEMORY_REMOVE + ")");
        }
        return String.join(" and ", clauses);
    }

    @Override
    public String render(int maxChars) {
        List<String> shownPool = ranked().stream().limit(config.poolShown()).map(p -> p.content).toList();
        return SessionText.render(slots, config.slotLimits(), shownPool, pool.size(), maxChars);
    }

    @Override
    public JsonNode snapshot() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("formatVersion", FORMAT_VERSION);
        node.put("active", active);
        ObjectNode slotsNode = node.putObject("slots");
        slots.forEach((slot, items) -> {
            ArrayNode array = slotsNode.putArray(slot);
            items.forEach(array::add);
        });
        node.set("calls", runs.snapshot(slots));
        ArrayNode poolNode = node.putArray(POOL);
        for (Pooled item : pool) {
            poolNode.addObject().put("content", item.content).put("age", item.age).put("mentions", item.mentions);
        }
        return node;
    }

    @Override
    public void restore(JsonNode snapshot) {
        slots.values().forEach(List::clear);
        pool.clear();
        runs.restore(null);
        active = config.activation().fromStart() || snapshot != null && snapshot.path("active").asBoolean(false);
        if (snapshot == null || snapshot.path("formatVersion").asInt(-1) != FORMAT_VERSION
                || !snapshot.path("slots").isObject() || !snapshot.path(POOL).isArray()) {
            log.warn("Ignoring an unreadable session snapshot (format {}) for {}; the session starts empty",
                    snapshot == null ? "none" : snapshot.path("formatVersion"), context.key());
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = snapshot.get("slots").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> stored = it.next();
            LinkedList<String> items = slots.get(stored.getKey());
            if (items == null) {
                log.warn("Dropping stored session slot '{}' of {}: it is no longer configured", stored.getKey(), context.key());
                continue;
            }
            int limit = config.slotLimits().get(stored.getKey());
            for (JsonNode item : stored.getValue()) {
                String content = item.asText("");
                if (!content.isBlank() && items.size() < limit) {
                    items.add(content);
                }
            }
        }
        runs.restore(snapshot.get("calls"));
        for (JsonNode item : snapshot.get(POOL)) {
            String content = item.path("content").asText("");
            int age = item.path("age").asInt(-1);
            int mentions = item.path("mentions").asInt(-1);
            if (content.isBlank() || age < 0 || mentions < 0) {
                log.warn("Dropping an unreadable stored pool item {} of {}", item, context.key());
            } else {
                restore(new Pooled(content, Texts.normalize(content), age, mentions));
            }
        }
    }

    /**
     * Adds a stored pool item as {@link #putInPool} would: a file a stored pool holds under two paths (saved before one
     * file was one item) becomes one item with the younger age and the more mentions, and a shorter form of two files
     * it holds is left out.
     */
    private void restore(Pooled stored) {
        List<Pooled> same = sameItem(stored);
        if (same.size() == 1) {
            Pooled existing = same.get(0);
            existing.age = Math.min(existing.age, stored.age);
            existing.mentions = Math.max(existing.mentions, stored.mentions);
            existing.takeFormOf(stored);
        } else if (same.isEmpty() && pool.size() < config.poolCapacity()) {
            pool.add(stored);
        }
    }

    /** A pool item. Mutable, guarded by the memory's lock. */
    private static final class Pooled {
        String content;
        String key;
        /** The file's path when the item is one ({@link FilePaths#segments}), else {@code null}. */
        List<String> path;
        int age;
        int mentions;
        private Mentions keys;

        Pooled(String content, String key, int age, int mentions) {
            this.content = content;
            this.key = key;
            this.path = FilePaths.segments(content);
            this.age = age;
            this.mentions = mentions;
        }

        /** Shows {@code other}'s form when that is the more specific path of the same file (more segments). */
        void takeFormOf(Pooled other) {
            if (path != null && other.path != null && other.path.size() > path.size()) {
                content = other.content;
                key = other.key;
                path = other.path;
                keys = null;
            }
        }

        Mentions mentionKeys() {
            if (keys == null) {
                keys = Mentions.of(content);
            }
            return keys;
        }
    }
}
