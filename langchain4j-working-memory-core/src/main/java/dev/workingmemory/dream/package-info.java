/**
 * Dreams (seed 000): the building blocks that rewrite a user's compact state document between conversations.
 *
 * <ul>
 *   <li>The document: {@link dev.workingmemory.dream.StateDocument} (parse what people and models write, render the
 *   canonical form), its sections {@link dev.workingmemory.dream.StateSchema} (configurable; Crystal Pointers stays),
 *   {@link dev.workingmemory.dream.CrystalPointer} lines and the {@link dev.workingmemory.dream.StateBudget}.</li>
 *   <li>The synthesis: {@link dev.workingmemory.dream.DreamSynthesizer} from a bounded
 *   {@link dev.workingmemory.dream.DreamInput} — {@link dev.workingmemory.dream.LlmDreamSynthesizer} through a
 *   {@code ChatModel}, {@link dev.workingmemory.dream.OfflineDreamSynthesizer} without one.</li>
 *   <li>The checks before a commit: {@link dev.workingmemory.dream.CollapseGuards} (a
 *   {@link dev.workingmemory.dream.GuardVerdict} naming the {@link dev.workingmemory.dream.DreamGuard} and listing a
 *   {@link dev.workingmemory.dream.GuardCheck} per guard that ran, which the report keeps) and the
 *   {@link dev.workingmemory.dream.PointerCheck}.</li>
 *   <li>The first dream after a seed migration: {@link dev.workingmemory.dream.SeedTransition}.</li>
 *   <li>Salience ("hormones"): {@link dev.workingmemory.dream.Salience} with a
 *   {@link dev.workingmemory.dream.SalienceScorer}, its {@link dev.workingmemory.dream.SalienceLevels}, mood line and
 *   {@link dev.workingmemory.dream.AutoNote}s.</li>
 * </ul>
 *
 * <ul>
 *   <li>The orchestration: {@link dev.workingmemory.dream.DreamEngine} (one dream per resource under a store lease,
 *   crash-safe commit through {@link dev.workingmemory.dream.DreamRecord}s, rollback, seed migration), configured by
 *   {@link dev.workingmemory.dream.DreamConfig}, reporting a {@link dev.workingmemory.dream.DreamReport}; the layers
 *   {@link dev.workingmemory.dream.StateLayer} ({@code <state>}) and {@link dev.workingmemory.dream.SalienceLayer}. The
 *   provider wires them: {@code WorkingMemoryProvider.dream(id)}, {@code rollbackDream(id)}, {@code dreamModel(…)},
 *   {@code dreams(DreamConfig)}.</li>
 * </ul>
 *
 * The engine runs them in this order: build a {@code DreamInput} (old state, pending notes, new crystals, salience,
 * entities, slot items), {@code synthesize}, {@code CollapseGuards.judge(input, synthesis.state())}, then
 * {@code PointerCheck.check(verdict.candidate().pointers(), input.crystals())} and commit
 * {@code verdict.candidate().withPointers(result.pointers())}, removing {@code input.consumedNotes()} from the log.
 * Texts in a state are data: nothing here escapes them for the block.
 */
package dev.workingmemory.dream;
