package dev.workingmemory.dream;

import dev.langchain4j.model.TokenCountEstimator;
import dev.langchain4j.model.chat.ChatModel;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.Provenance;
import dev.workingmemory.event.DreamFinished;
import dev.workingmemory.event.WorkingMemoryListener;
import dev.workingmemory.internal.CharsPerTokenEstimator;
import dev.workingmemory.internal.CrystalIds;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.notes.Note;
import dev.workingmemory.render.BlockText;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * Dreams of one resource at a time (seed 000): {@code New_State = f(Old_State + Notes + New_Crystals + Insights)}.
 *
 * <p><b>A dream</b> ({@link #dream}) takes the resource's dream lease in the store (one dream per resource, also
 * across application instances; a lease expires after {@link DreamConfig#leaseTtl()}, so a crashed dreamer blocks
 * nobody for longer), finishes a commit a crash interrupted, migrates a hand-written MEMORY.md once
 * ({@link SeedMigration}), then builds a bounded {@link DreamInput}: the state in the document {@code MEMORY.md}, the
 * pending notes of the notes log (the oldest {@code maxNotes}), the crystals created since the last dream
 * ({@link CrystalStore#recent}, when there is a crystal store) and the {@link DreamInsights}. Text that came from a
 * tool is data ({@link Provenance}): the synthesizer sees a tool output as the tool's name and time only, and a line
 * of its state that repeats what a tool returned (and the user or the old state never said) is held out of it, with
 * a WARN. The synthesizer runs on
 * the engine's own thread within {@link DreamConfig#timeout()}; its state is judged by the {@link CollapseGuards} (each guard that ran is in the
 * report's {@link DreamReport#guardChecks()}); the
 * lines of the old state it no longer holds become {@code TOPIC} crystals (nothing a dream drops is lost to search);
 * its pointers are checked through the crystal store's search ({@link PointerCheck}; unchecked without a crystal
 * store), and it is committed. A synthesis that fails, times out or is rejected changes nothing; the {@link DreamReport} says why.
 *
 * <p><b>The commit</b> is made crash-safe with the store's own operations, in this order:
 * <ol>
 *   <li>a {@link DreamRecord} with status {@code PENDING} (the old and the new text, the exact lines of the consumed
 *   notes) is added to the document {@value DreamRecords#DOCUMENT};</li>
 *   <li>the new state is written to {@code MEMORY.md};</li>
 *   <li>exactly the consumed lines are removed from the notes log: notes appended meanwhile stay;</li>
 *   <li>the record becomes {@code COMMITTED}.</li>
 * </ol>
 * A crash before step 1 leaves the old state with every note; after it, the next dream or load of the resource
 * ({@link #prepare}) rolls the record forward: steps 2 to 4 again, each of which has the same effect when repeated. So
 * every note is either pending or consumed by the committed state, never both, never lost. (One exception: a note
 * line identical to a consumed one — same second, importance and text — appended between the crash and the
 * recovery is taken for the consumed one.)
 *
 * <p><b>Rollback</b> ({@link #rollback}) puts back the state before the last committed dream and gives its consumed
 * notes back to the log; a crash in the middle is finished the same way. {@link DreamConfig#recordsKept()} records are
 * kept, so that many dreams can be rolled back one after the other.
 *
 * <p><b>The first dream after a seed migration</b> appends the new state below the user's original MEMORY.md
 * ({@link SeedTransition}); its input has no old state (the original is in the crystals); later dreams read the
 * generated part as their old state and write a plain state document.
 *
 * <p>Thread-safe. Dreams of different resources run in parallel on their callers' threads; each synthesis runs on a
 * daemon thread of the engine ({@code working-memory-dream}).
 */
public final class DreamEngine implements AutoCloseable {

    static final String LEASE = "dream";
    /** How often {@link #holdOff} tries the lease again while a dream holds it. */
    private static final long HOLD_OFF_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    static final String STATE = SeedMigration.STATE;
    private static final Logger log = LoggerFactory.getLogger(DreamEngine.class);

    private final WorkingMemoryStore store;
    private final CrystalStore crystals;
    private final DreamSynthesizer synthesizer;
    private final DreamConfig config;
    private final int budgetChars;
    private final Clock clock;
    private final Function<String, DreamInsights> insights;
    private final WorkingMemoryListener listener;
    private final DreamRecords records;
    private final DreamLog dreamLog;
    private final SeedMigration migration;
    private final ExecutorService synthesis;
    private final String instance = UUID.randomUUID().toString();
    private final AtomicLong owners = new AtomicLong();
    private final AtomicLong changes = new AtomicLong();

    private DreamEngine(Builder builder) {
        Ensure.that(builder.synthesizer == null || builder.dreamModel == null,
                "Give the dream engine a dream model or a synthesizer, not both");
        this.store = Ensure.notNull(builder.store, "store");
        this.crystals = builder.crystals;
        this.config = builder.config;
        this.budgetChars = builder.budgetChars;
        this.clock = builder.clock;
        this.insights = builder.insights;
        this.listener = builder.listener;
        if (builder.synthesizer != null) {
            this.synthesizer = builder.synthesizer;
        } else if (builder.dreamModel != null) {
            LlmDreamSynthesizer.Builder llm = LlmDreamSynthesizer.builder().chatModel(builder.dreamModel);
            config.promptTemplate().ifPresent(llm::promptTemplate);
            this.synthesizer = llm.build();
        } else {
            OfflineDreamSynthesizer.Builder offline = OfflineDreamSynthesizer.builder();
            if (crystals != null) {
                offline.keywordSource(crystals::keywords);
            }
            this.synthesizer = offline.build();
        }
        this.records = new DreamRecords(store, config.recordsKept());
        this.dreamLog = new DreamLog(store);
        this.migration = new SeedMigration(store, crystals, builder.estimator, config::seedFile, records);
        this.synthesis = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "working-memory-dream");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** A builder of an engine; a store is required. */
    public static Builder builder() {
        return new Builder();
    }

    /** When and how this engine dreams. */
    public DreamConfig config() {
        return config;
    }

    /** The budget of a synthesized state, in characters. */
    public int budgetChars() {
        return budgetChars;
    }

    /**
     * A number that changes whenever this engine changes a state (commit, rollback, recovery, migration), so that
     * state layers know when to read {@code MEMORY.md} again.
     */
    public long changes() {
        return changes.get();
    }

    /** The text of {@code resource}'s {@code MEMORY.md}, empty when it has none. */
    public Optional<String> state(String resource) {
        return store.getDocument(key(resource), STATE);
    }

    /**
     * Gives {@code child} a copy of {@code parent}'s state document (a sub-agent's fork), as a dream's: its first dream
     * goes on from it (no dream history is copied, and an empty one tells {@link SeedMigration} the document is no
     * hand-written seed). Its crystal pointers are left out: they point at the parent's long-term memory, which the
     * child's searches do not reach. Nothing when the parent has none.
     */
    public void copyState(String parent, String child) {
        Optional<String> text = state(parent);
        if (text.isPresent()) {
            String childKey = key(child);
            records.write(childKey, List.of());
            store.putDocument(childKey, STATE,
                    SeedTransition.state(text.get(), config.schema())
                            .withSection(StateSchema.CRYSTAL_POINTERS, "- None yet.").render());
            changes.incrementAndGet();
        }
    }

    /** The committed dreams of {@code resource} still kept, oldest first. */
    public List<DreamRecord> history(String resource) {
        return records.read(key(resource)).stream()
                .filter(record -> record.status() == DreamRecord.Status.COMMITTED).toList();
    }

    /**
     * The last {@value DreamLog#KEPT} dreams of {@code resource} that got as far as a synthesis, oldest first: committed
     * (with the id of their {@link #history record}), rejected by a collapse guard, or failed (the synthesis threw or
     * timed out), each with its report and, once rolled back, when. Kept in the resource's document
     * {@value DreamLog#DOCUMENT}. Dreams that ended before a synthesis (another dream running, nothing new) are not
     * logged: their report goes only to the caller of {@link #dream}.
     */
    public List<DreamLogEntry> log(String resource) {
        return dreamLog.read(key(resource));
    }

    /**
     * Dreams {@code resource} now, on the calling thread (the synthesis on the engine's thread, within the timeout).
     * Never throws for what a dream may meet (a busy lease, a failing model, a failing store): the report says it.
     */
    public DreamReport dream(String resource) {
        Ensure.notNull(resource, "resource");
        Instant started = clock.instant();
        long start = System.nanoTime();
        String key = key(resource);
        String owner = owner();
        try {
            if (!store.acquireLease(key, LEASE, owner, config.leaseTtl())) {
                return DreamReport.skipped(resource, "Another dream of this resource is running", started,
                        since(start));
            }
        } catch (WorkingMemoryStoreException e) {
            log.warn("Cannot take the dream lease of '{}'", resource, e);
            return DreamReport.skipped(resource, "The store failed: " + e.getMessage(), started, since(start));
        }
        try {
            recover(key);
            if (migration.migrateIfNeeded(resource, key, started)) {
                changes.incrementAndGet();
            }
            return dreamHoldingLease(resource, key, started, start);
        } catch (WorkingMemoryStoreException e) {
            log.warn("The dream of '{}' failed in the store; a commit it began is finished on the next load or dream",
                    resource, e);
            return DreamReport.skipped(resource, "The store failed: " + e.getMessage()
                    + " (a commit already begun is finished on the next load or dream)", started, since(start));
        } finally {
            release(key, owner);
        }
    }

    /**
     * Dreams every resource of the store that has at least {@link DreamConfig#minNotes()} pending notes, one after the
     * other (the scheduler's task); stops early when the calling thread is interrupted.
     */
    public List<DreamReport> dreamDue() {
        String prefix = key("");
        List<DreamReport> reports = new ArrayList<>();
        for (String key : store.keys()) {
            if (Thread.currentThread().isInterrupted()) {
                break;
            }
            if (key.startsWith(prefix) && store.notes(key).size() >= config.minNotes()) {
                reports.add(dream(key.substring(prefix.length())));
            }
        }
        return reports;
    }

    private DreamReport dreamHoldingLease(String resource, String key, Instant started, long start) {
        List<DreamRecord> history = records.read(key);
        Optional<String> current = store.getDocument(key, STATE);
        boolean transition = current.isPresent() && migration.migrated(key)
                && history.stream().noneMatch(record -> record.status() == DreamRecord.Status.COMMITTED);
        StateDocument old = transition || current.isEmpty() ? null : SeedTransition.state(current.get(), config.schema());

        Map<Note, String> lines = new IdentityHashMap<>();
        List<Note> notes = new ArrayList<>();
        for (String line : store.notes(key)) {
            Note.parse(line).ifPresent(note -> {
                notes.add(note);
                lines.put(note, line);
            });
        }
        Instant lastDream = history.isEmpty() ? Instant.EPOCH : history.get(history.size() - 1).time();
        List<Crystal> recent = crystals == null ? List.of()
                : crystals.recent(scope(resource), lastDream, config.limits().maxCrystals());
        if (notes.isEmpty() && recent.isEmpty()) {
            return DreamReport.skipped(resource, "Nothing new since the last dream: no pending notes, no new crystals",
                    started, since(start));
        }
        DreamInsights known = insights.apply(resource);
        // tool text is data (Provenance): synthesizers see none of it, and a line of theirs that repeats it is held
        ToolText.Evidence evidence = new ToolText.Evidence().insights(known);
        current.ifPresent(state -> evidence.add(Provenance.DREAM, state));
        recent.forEach(evidence::crystal);
        DreamInput input = DreamInput.builder().schema(config.schema()).budgetChars(budgetChars).time(started)
                .oldState(old).notes(notes).crystals(recent.stream().map(ToolText::forDream).toList())
                .salience(known.salience()).entities(known.entities()).slotItems(known.slotItems())
                .limits(config.limits()).build();
        long recordId = history.isEmpty() ? 1 : history.get(history.size() - 1).id() + 1;
        DreamReport report = synthesizeAndCommit(resource, key, input, evidence, history, recordId, current, transition,
                lines, started, start);
        dreamLog.append(key, new DreamLogEntry(report, report.committed() ? recordId : 0, null));
        try {
            listener.onDreamFinished(new DreamFinished(resource, report.committed(), report.reason(),
                    report.notesConsumed(), current.map(String::length).orElse(0), report.outputChars(),
                    report.duration()));
        } catch (RuntimeException e) {
            log.warn("A listener failed on the end of the dream of '{}'", resource, e);
        }
        return report;
    }

    private DreamReport synthesizeAndCommit(String resource, String key, DreamInput input, ToolText.Evidence evidence,
                                            List<DreamRecord> history, long id, Optional<String> current,
                                            boolean transition, Map<Note, String> lines, Instant started, long start) {
        Synthesis synthesized;
        try {
            synthesized = synthesize(input);
        } catch (TimeoutException e) {
            return failed(resource, input, "The synthesis timed out after " + config.timeout(), started, start);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            log.warn("The dream synthesis of '{}' failed", resource, cause);
            return failed(resource, input, "The synthesis failed: " + cause, started, start);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed(resource, input, "The dream was interrupted", started, start);
        }
        // a model's answer may hold controls or an unpaired surrogate: MEMORY.md keeps the state as the rule cleans it
        String synthesizedState = BlockText.clean(synthesized.state());
        ToolText.Held held = evidence.hold(StateDocument.parse(synthesizedState, input.schema()));
        if (!held.lines().isEmpty()) {
            log.warn("Dream of '{}': {} line(s) repeating what a tool returned held out of the state (tool text is data,"
                    + " still searchable): {}", resource, held.lines().size(), held.lines());
        }
        GuardVerdict verdict = config.guards().judge(input, held.lines().isEmpty() ? synthesizedState
                : held.state().render());
        if (!verdict.passed()) {
            log.info("Dream of '{}' rejected by {}: {}", resource, verdict.failed(), verdict.reason());
            return new DreamReport(resource, false, "Rejected: " + verdict.reason(), verdict.failed(),
                    input.sizeChars(), verdict.candidate().length(), 0, input.deferredNotes(), input.crystals().size(),
                    0, 0, 0, false, synthesized.tokensUsed(), started, since(start), verdict.checks());
        }
        List<Crystal> faded = crystals == null ? List.of() : fadedTopics(resource, input, verdict.candidate());
        if (!faded.isEmpty()) {
            crystals.add(faded);
        }
        PointerCheck.Result checked = crystals == null ? null
                : pointerCheck(resource).check(verdict.candidate().pointers(), input.crystals());
        StateDocument state = checked == null ? verdict.candidate() : verdict.candidate().withPointers(checked.pointers());
        String text = transition ? SeedTransition.append(current.get(), state) : state.render();
        List<String> consumed = input.consumedNotes().stream().map(lines::get).toList();
        commit(key, history, new DreamRecord(id, started, DreamRecord.Status.PENDING, current.orElse(null), text,
                consumed, input.sizeChars(), state.length(), transition));
        log.info("Dream of '{}' committed: {} note(s) consumed, state {} characters", resource, consumed.size(),
                state.length());
        return new DreamReport(resource, true, transition
                ? "Committed below the original MEMORY.md (first dream after the seed migration)" : "Committed",
                null, input.sizeChars(), state.length(), consumed.size(), input.deferredNotes(),
                input.crystals().size(), count(checked, PointerOutcome.Action.KEPT),
                count(checked, PointerOutcome.Action.REPAIRED), count(checked, PointerOutcome.Action.DROPPED),
                checked != null, synthesized.tokensUsed(), started, since(start), verdict.checks(),
                checked == null ? List.of() : checked.outcomes());
    }

    private Synthesis synthesize(DreamInput input) throws TimeoutException, ExecutionException, InterruptedException {
        Future<Synthesis> future = synthesis.submit(() -> synthesizer.synthesize(input));
        try {
            return future.get(config.timeout().toNanos(), TimeUnit.NANOSECONDS);
        } finally {
            future.cancel(true); // done already, or abandoned: the model call is interrupted where it can be
        }
    }

    private PointerCheck pointerCheck(String resource) {
        return PointerCheck.builder().keywordSource(crystals::keywords).search(keywords -> crystals
                .search(new CrystalQuery(scope(resource), StateLines.clip(keywords, CrystalQuery.MAX_TEXT_LENGTH), 5))
                .stream().map(hit -> new SearchHit(hit.crystal().id(), hit.crystal().text())).toList()).build();
    }

    /** Steps 1 to 4 of the class comment. */
    private void commit(String key, List<DreamRecord> history, DreamRecord pending) {
        List<DreamRecord> all = new ArrayList<>(history);
        all.add(pending);
        records.write(key, all);
        finishCommit(key, all);
    }

    /** Steps 2 to 4 for the last record, which is pending; each has the same effect when run again. */
    private void finishCommit(String key, List<DreamRecord> all) {
        DreamRecord pending = all.get(all.size() - 1);
        store.putDocument(key, STATE, pending.state());
        store.removeNotes(key, pending.consumedNotes());
        all.set(all.size() - 1, pending.with(DreamRecord.Status.COMMITTED));
        records.write(key, all);
        changes.incrementAndGet();
    }

    /**
     * Rolls back the last committed dream of {@code resource}: its previous state is written back and the notes it
     * consumed are appended to the notes log again (those still there are not added twice).
     *
     * @return false when there is no committed dream left to roll back
     * @throws IllegalStateException when a dream of the resource is running (try again later)
     */
    public boolean rollback(String resource) {
        Ensure.notNull(resource, "resource");
        String key = key(resource);
        String owner = owner();
        if (!store.acquireLease(key, LEASE, owner, config.leaseTtl())) {
            throw new IllegalStateException("A dream of '" + resource + "' is running; roll back when it is over");
        }
        try {
            recover(key);
            List<DreamRecord> all = new ArrayList<>(records.read(key));
            if (all.isEmpty() || all.get(all.size() - 1).status() != DreamRecord.Status.COMMITTED) {
                return false;
            }
            DreamRecord last = all.get(all.size() - 1);
            all.set(all.size() - 1, last.with(DreamRecord.Status.ROLLING_BACK));
            records.write(key, all);
            finishRollback(key, all);
            dreamLog.rolledBack(key, last, clock.instant());
            log.info("Rolled back the last dream of '{}'", resource);
            return true;
        } finally {
            release(key, owner);
        }
    }

    private void finishRollback(String key, List<DreamRecord> all) {
        DreamRecord record = all.get(all.size() - 1);
        Map<String, Integer> present = new HashMap<>();
        store.notes(key).forEach(line -> present.merge(line, 1, Integer::sum));
        for (String line : record.consumedNotes()) {
            if (present.getOrDefault(line, 0) > 0) {
                present.merge(line, -1, Integer::sum);
            } else {
                store.appendNote(key, line);
            }
        }
        if (record.previousState() == null) {
            store.deleteDocument(key, STATE);
        } else {
            store.putDocument(key, STATE, record.previousState());
        }
        all.remove(all.size() - 1);
        records.write(key, all);
        changes.incrementAndGet();
    }

    /** Finishes a commit or a rollback a crash interrupted. Holding the lease. */
    private void recover(String key) {
        List<DreamRecord> all = new ArrayList<>(records.read(key));
        if (all.isEmpty()) {
            return;
        }
        DreamRecord.Status status = all.get(all.size() - 1).status();
        if (status == DreamRecord.Status.PENDING) {
            log.warn("Finishing the commit of a dream of '{}' that was interrupted", key);
            finishCommit(key, all);
        } else if (status == DreamRecord.Status.ROLLING_BACK) {
            log.warn("Finishing the rollback of a dream of '{}' that was interrupted", key);
            finishRollback(key, all);
        }
    }

    /**
     * Prepares {@code resource} for use, as its memory is loaded: finishes a commit or rollback a crash interrupted and
     * migrates a hand-written MEMORY.md, when either is needed and no dream of the resource runs (that dream does it).
     * Failures are logged, never thrown: the memory loads with the state as it is.
     */
    public void prepare(String resource) {
        Ensure.notNull(resource, "resource");
        String key = key(resource);
        try {
            if (!needsPreparing(resource, key)) {
                return;
            }
            String owner = owner();
            if (!store.acquireLease(key, LEASE, owner, config.leaseTtl())) {
                return;
            }
            try {
                recover(key);
                if (migration.migrateIfNeeded(resource, key, clock.instant())) {
                    changes.incrementAndGet();
                }
            } finally {
                release(key, owner);
            }
        } catch (RuntimeException e) {
            log.warn("Could not prepare the dream state of '{}'; a later dream tries again", resource, e);
        }
    }

    /**
     * Keeps dreams off {@code resource} while it is forgotten: takes its dream lease, waiting for a dream that holds
     * it, in any instance, to end (at most {@link DreamConfig#leaseTtl()}, after which a crashed dreamer's lease has
     * expired), so that no dream commits a state made of what is being deleted. Deleting the resource's key releases
     * the lease.
     *
     * @return false when the lease could not be taken in that time
     */
    public boolean holdOff(String resource) {
        Ensure.notNull(resource, "resource");
        String key = key(resource);
        String owner = owner();
        long deadline = System.nanoTime() + config.leaseTtl().toNanos();
        while (!store.acquireLease(key, LEASE, owner, config.leaseTtl())) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            LockSupport.parkNanos(HOLD_OFF_PAUSE_NANOS);
        }
        return true;
    }

    /** Cheap checks without the lease: a record left half-done, or a migration not run yet. */
    private boolean needsPreparing(String resource, String key) {
        List<DreamRecord> all = records.read(key);
        if (!all.isEmpty()) {
            return all.get(all.size() - 1).status() != DreamRecord.Status.COMMITTED;
        }
        if (records.exist(key) || migration.migrated(key)) {
            return false;
        }
        return store.getDocument(key, STATE).isPresent() || config.seedFile(resource).isPresent();
    }

    private void release(String key, String owner) {
        try {
            store.releaseLease(key, LEASE, owner);
        } catch (WorkingMemoryStoreException e) {
            log.warn("Cannot release the dream lease of '{}'; it expires after {}", key, config.leaseTtl(), e);
        }
    }

    private DreamReport failed(String resource, DreamInput input, String reason, Instant started, long start) {
        log.warn("Dream of '{}' failed: {}", resource, reason);
        return new DreamReport(resource, false, reason, null, input.sizeChars(), 0, 0, input.deferredNotes(),
                input.crystals().size(), 0, 0, 0, false, OptionalInt.empty(), started, since(start), List.of());
    }

    /**
     * The lines of the old state that the new one no longer holds, as {@link CrystalKind#TOPIC} crystals: what a dream
     * moves out of the state stays searchable (seed 000: fading topics become pointers, not deletions), and the
     * pointers the synthesis wrote for them can be checked. Ids are derived from the scope and the text
     * ({@link CrystalIds}), so a dream run again replaces them.
     */
    private static List<Crystal> fadedTopics(String resource, DreamInput input, StateDocument candidate) {
        if (input.oldState().isEmpty()) {
            return List.of();
        }
        String kept = candidate.render();
        List<Crystal> faded = new ArrayList<>();
        for (StateDocument.Section section : input.oldState().get().sections()) {
            for (String line : StateLines.lines(section.body())) {
                String text = line.strip().replaceFirst("^[-*+]\\s+", "");
                if (CrystalPointer.parse(line).isEmpty() && !StateLines.isPlaceholder(line)
                        && StateLines.substance(line) > 0 && !text.isBlank() && !kept.contains(text)) {
                    faded.add(new Crystal(CrystalIds.of("topic", scope(resource), text), scope(resource),
                            CrystalKind.TOPIC, input.time(), 0.6, List.of(section.name()), text, STATE));
                }
            }
        }
        return faded;
    }

    private static int count(PointerCheck.Result checked, PointerOutcome.Action action) {
        return checked == null ? 0 : (int) checked.count(action);
    }

    private String owner() {
        return instance + "#" + owners.incrementAndGet();
    }

    private static String key(String resource) {
        return MemoryKey.of(resource).resourceStoreKey();
    }

    /** The resource's scope in the crystal store. */
    static String scope(String resource) {
        return MemoryKey.of(resource).crystalScope();
    }

    private static Duration since(long start) {
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** Stops the synthesis threads; a synthesis under way is interrupted and its dream changes nothing. */
    @Override
    public void close() {
        synthesis.shutdownNow();
    }

    /** Builds a {@link DreamEngine}. Not thread-safe. */
    public static final class Builder {

        private WorkingMemoryStore store;
        private CrystalStore crystals;
        private DreamSynthesizer synthesizer;
        private ChatModel dreamModel;
        private DreamConfig config = DreamConfig.defaults();
        private int budgetChars = StateBudget.forContextWindow(128_000);
        private Clock clock = Clock.systemUTC();
        private TokenCountEstimator estimator = CharsPerTokenEstimator.INSTANCE;
        private Function<String, DreamInsights> insights = resource -> DreamInsights.NONE;
        private WorkingMemoryListener listener = new WorkingMemoryListener() {
        };

        private Builder() {
        }

        /** Where states, notes, records and leases are. Required. */
        public Builder store(WorkingMemoryStore store) {
            this.store = Ensure.notNull(store, "store");
            return this;
        }

        /**
         * The long-term memory: crystals since the last dream, pointer checks, migrated chunks; {@code null} (the
         * default) for none — then the input has no crystals, pointers are not checked and migrated text is only
         * backed up.
         */
        public Builder crystalStore(CrystalStore crystals) {
            this.crystals = crystals;
            return this;
        }

        /** Synthesizes through this model ({@link LlmDreamSynthesizer}); without one, {@link OfflineDreamSynthesizer}. */
        public Builder dreamModel(ChatModel model) {
            this.dreamModel = Ensure.notNull(model, "model");
            return this;
        }

        /** A synthesizer of your own, instead of a dream model. */
        public Builder synthesizer(DreamSynthesizer synthesizer) {
            this.synthesizer = Ensure.notNull(synthesizer, "synthesizer");
            return this;
        }

        /** When and how to dream; default {@link DreamConfig#defaults()}. */
        public Builder config(DreamConfig config) {
            this.config = Ensure.notNull(config, "config");
            return this;
        }

        /** The model's context window, which sizes the state (seed 000's table, {@link StateBudget}). */
        public Builder contextWindow(int contextWindowTokens) {
            this.budgetChars = StateBudget.forContextWindow(contextWindowTokens);
            return this;
        }

        /** The clock that times dreams, leases and auto-notes; default {@link Clock#systemUTC()}. */
        public Builder clock(Clock clock) {
            this.clock = Ensure.notNull(clock, "clock");
            return this;
        }

        /** Counts the tokens of migrated chunks; default a token per four characters. */
        public Builder tokenCountEstimator(TokenCountEstimator estimator) {
            this.estimator = Ensure.notNull(estimator, "estimator");
            return this;
        }

        /** What a dream learns about a resource besides notes and crystals; default nothing. */
        public Builder insights(Function<String, DreamInsights> insights) {
            this.insights = Ensure.notNull(insights, "insights");
            return this;
        }

        /** Hears the end of each dream that got as far as a synthesis ({@link DreamFinished}); default none. */
        public Builder listener(WorkingMemoryListener listener) {
            this.listener = Ensure.notNull(listener, "listener");
            return this;
        }

        /** @throws IllegalArgumentException without a store, or with both a dream model and a synthesizer */
        public DreamEngine build() {
            return new DreamEngine(this);
        }
    }
}
