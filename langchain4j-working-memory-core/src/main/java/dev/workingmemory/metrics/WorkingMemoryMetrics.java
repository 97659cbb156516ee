package dev.workingmemory.metrics;

import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.context.PruningMode;
import dev.workingmemory.event.BlockRendered;
import dev.workingmemory.event.CrystalsDeferred;
import dev.workingmemory.event.CrystalsIndexed;
import dev.workingmemory.event.DreamFinished;
import dev.workingmemory.event.EntityTracked;
import dev.workingmemory.event.NoteAppended;
import dev.workingmemory.event.OutputPruned;
import dev.workingmemory.event.PressureChanged;
import dev.workingmemory.event.SaveFailed;
import dev.workingmemory.event.SearchRun;
import dev.workingmemory.event.WorkingMemoryListener;
import dev.workingmemory.internal.Ensure;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.Locale;

/**
 * Micrometer meters for a {@link WorkingMemoryProvider}, fed by its events. Needs {@code io.micrometer:micrometer-core}
 * on the classpath (an optional dependency of this module).
 *
 * <pre>{@code
 * WorkingMemoryMetrics metrics = new WorkingMemoryMetrics(registry);
 * WorkingMemoryProvider memories = WorkingMemoryProvider.builder().listener(metrics).build();
 * metrics.monitor(memories);   // the gauges
 * }</pre>
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>what</th></tr>
 *   <tr><td>{@code working.memory.render}</td><td>timer</td><td>renderings of a block (only when a layer changed)</td></tr>
 *   <tr><td>{@code working.memory.search}</td><td>timer</td><td>long-term searches; {@code working.memory.search.hits}
 *       (summary) their hits</td></tr>
 *   <tr><td>{@code working.memory.dream}</td><td>timer, tag {@code outcome}</td><td>dreams, {@code committed} or
 *       {@code rejected}</td></tr>
 *   <tr><td>{@code working.memory.dreams}</td><td>counter, tag {@code outcome}</td><td>dreams by outcome</td></tr>
 *   <tr><td>{@code working.memory.index}</td><td>timer</td><td>indexing batches; {@code working.memory.crystals.indexed}
 *       (counter) their crystals</td></tr>
 *   <tr><td>{@code working.memory.crystals.deferred}</td><td>counter</td><td>crystals added while the indexer was
 *       behind by its whole queue (indexed later from the records; the adds did not wait)</td></tr>
 *   <tr><td>{@code working.memory.entities.tracked}</td><td>counter</td><td>entities tracked</td></tr>
 *   <tr><td>{@code working.memory.notes.appended}</td><td>counter</td><td>notes taken</td></tr>
 *   <tr><td>{@code working.memory.saves.failed}</td><td>counter, tag {@code scope}</td><td>failed saves</td></tr>
 *   <tr><td>{@code working.memory.outputs.pruned}</td><td>counter, tag {@code mode}</td><td>pruned tool outputs;
 *       {@code working.memory.pruned.chars} (summary) the characters each pruning removed</td></tr>
 *   <tr><td>{@code working.memory.pressure.changes}</td><td>counter, tag {@code level}</td><td>moves to a pressure
 *       level</td></tr>
 *   <tr><td>{@code working.memory.memories.cached}</td><td>gauge</td><td>memories loaded</td></tr>
 *   <tr><td>{@code working.memory.notes.pending}</td><td>gauge</td><td>notes no dream consumed yet, over the loaded
 *       resources</td></tr>
 *   <tr><td>{@code working.memory.index.pending}</td><td>gauge</td><td>crystals waiting to be indexed</td></tr>
 * </table>
 * Meters of events not seen yet (searches, dreams, indexing, pruning) are registered all the same, at zero, so that
 * dashboards can be built before they report; a {@code pressure.changes} counter appears with the first move
 * to its level.
 *
 * <p>Thread-safe: Micrometer's meters are.
 */
public final class WorkingMemoryMetrics implements WorkingMemoryListener {

    /** The prefix of every meter's name. */
    public static final String PREFIX = "working.memory.";

    private final MeterRegistry registry;
    private final Timer render;
    private final Timer search;
    private final DistributionSummary searchHits;
    private final Timer dreamCommitted;
    private final Timer dreamRejected;
    private final Counter dreamsCommitted;
    private final Counter dreamsRejected;
    private final Timer index;
    private final Counter crystalsIndexed;
    private final Counter crystalsDeferred;
    private final Counter entitiesTracked;
    private final Counter notesAppended;
    private final DistributionSummary prunedChars;

    /** Registers the timers, counters and summaries in {@code registry}. */
    public WorkingMemoryMetrics(MeterRegistry registry) {
        this.registry = Ensure.notNull(registry, "registry");
        this.render = Timer.builder(PREFIX + "render").description("Renderings of a <working_memory> block")
                .register(registry);
        this.search = Timer.builder(PREFIX + "search").description("Long-term memory searches").register(registry);
        this.searchHits = DistributionSummary.builder(PREFIX + "search.hits").description("Hits per search")
                .register(registry);
        this.dreamCommitted = dreamTimer("committed");
        this.dreamRejected = dreamTimer("rejected");
        this.dreamsCommitted = dreamCounter("committed");
        this.dreamsRejected = dreamCounter("rejected");
        this.index = Timer.builder(PREFIX + "index").description("Batches of crystals embedded and indexed")
                .register(registry);
        this.crystalsIndexed = Counter.builder(PREFIX + "crystals.indexed").description("Crystals indexed")
                .register(registry);
        this.crystalsDeferred = Counter.builder(PREFIX + "crystals.deferred")
                .description("Crystals added while the indexer was behind by its whole queue, indexed later")
                .register(registry);
        this.entitiesTracked = Counter.builder(PREFIX + "entities.tracked").description("Entities tracked")
                .register(registry);
        this.notesAppended = Counter.builder(PREFIX + "notes.appended").description("Notes taken").register(registry);
        this.prunedChars = DistributionSummary.builder(PREFIX + "pruned.chars")
                .description("Characters removed from a tool output by pruning").baseUnit("characters")
                .register(registry);
        savesFailed("thread");
        savesFailed("resource");
        for (PruningMode mode : PruningMode.values()) {
            outputsPruned(mode.name());
        }
    }

    /**
     * Registers the gauges of {@code provider}: memories loaded, pending notes and crystals waiting to be indexed. The registry holds the provider
     * weakly, as Micrometer does for gauges.
     *
     * @return this
     */
    public WorkingMemoryMetrics monitor(WorkingMemoryProvider provider) {
        Ensure.notNull(provider, "provider");
        Gauge.builder(PREFIX + "memories.cached", provider, WorkingMemoryProvider::cachedMemories)
                .description("Working memories loaded").register(registry);
        Gauge.builder(PREFIX + "notes.pending", provider, WorkingMemoryProvider::pendingNotes)
                .description("Notes no dream consumed yet, over the loaded resources").register(registry);
        Gauge.builder(PREFIX + "index.pending", provider, WorkingMemoryProvider::pendingCrystals)
                .description("Crystals waiting to be indexed in the long-term memory").register(registry);
        return this;
    }

    @Override
    public void onBlockRendered(BlockRendered event) {
        render.record(event.time());
    }

    @Override
    public void onEntityTracked(EntityTracked event) {
        entitiesTracked.increment(event.entities().size());
    }

    @Override
    public void onNoteAppended(NoteAppended event) {
        notesAppended.increment();
    }

    @Override
    public void onSaveFailed(SaveFailed event) {
        savesFailed(event.scope().name().toLowerCase(Locale.ROOT)).increment();
    }

    @Override
    public void onCrystalsIndexed(CrystalsIndexed event) {
        index.record(event.time());
        crystalsIndexed.increment(event.count());
    }

    @Override
    public void onCrystalsDeferred(CrystalsDeferred event) {
        crystalsDeferred.increment(event.count());
    }

    @Override
    public void onSearchRun(SearchRun event) {
        search.record(event.time());
        searchHits.record(event.hits());
    }

    @Override
    public void onDreamFinished(DreamFinished event) {
        (event.committed() ? dreamCommitted : dreamRejected).record(event.time());
        (event.committed() ? dreamsCommitted : dreamsRejected).increment();
    }

    @Override
    public void onOutputPruned(OutputPruned event) {
        outputsPruned(event.mode()).increment();
        prunedChars.record(Math.max(0, event.charsBefore() - event.charsAfter()));
    }

    @Override
    public void onPressureChanged(PressureChanged event) {
        Counter.builder(PREFIX + "pressure.changes").tag("level", event.to().toLowerCase(Locale.ROOT))
                .register(registry).increment();
    }

    private Timer dreamTimer(String outcome) {
        return Timer.builder(PREFIX + "dream").tag("outcome", outcome).description("Dreams").register(registry);
    }

    private Counter dreamCounter(String outcome) {
        return Counter.builder(PREFIX + "dreams").tag("outcome", outcome).description("Dreams by outcome")
                .register(registry);
    }

    private Counter outputsPruned(String mode) {
        return Counter.builder(PREFIX + "outputs.pruned").tag("mode", mode.toLowerCase(Locale.ROOT))
                .description("Tool outputs pruned").register(registry);
    }

    private Counter savesFailed(String scope) {
        return Counter.builder(PREFIX + "saves.failed").tag("scope", scope)
                .description("Saves of working memory state that failed").register(registry);
    }

    @Override
    public String toString() {
        return "WorkingMemoryMetrics[" + registry.getClass().getSimpleName() + "]";
    }
}
