package dev.workingmemory.dream;

import dev.workingmemory.MemoryKey;
import dev.workingmemory.MemoryToolNames;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.store.WorkingMemoryStore;
import dev.workingmemory.testing.HashingEmbeddingModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 13, "Done when" 7: seed migration of a hand-written MEMORY.md and the first dream after it. */
class SeedMigrationTest {

    private static final String USER = "douglas";
    private static final String KEY = MemoryKey.of(USER).resourceStoreKey();

    /** About 6,000 words in sections, each naming a code word of its own ({@code quokka<n>}). */
    static String handWritten() {
        StringBuilder out = new StringBuilder("# My notes about Douglas\n\nWritten by hand before the memory existed.\n");
        for (int topic = 0; out.toString().split("\\s+").length < 6_000; topic++) {
            out.append("\n## Topic ").append(topic).append("\n\n");
            for (int i = 0; i < 3; i++) {
                out.append("Douglas mentioned the project code word quokka").append(topic).append(" while we discussed"
                        + " the ledger exports, the deployment pipeline and his weekend hiking plans with the family. ");
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static WorkingMemoryProvider provider(WorkingMemoryStore store) {
        return WorkingMemoryProvider.builder().store(store).embeddingModel(new HashingEmbeddingModel())
                .dreams(DreamConfig.builder().scheduled(false).build()).build();
    }

    private static long migratedCrystals(WorkingMemoryProvider memories) {
        return memories.memory(USER).search("quokka project code word", 100).stream()
                .filter(hit -> hit.kind() == CrystalKind.MIGRATED).count();
    }

    @Test
    void should_show_the_seeds_search_hint_only_to_a_model_that_has_memory_search() {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        store.putDocument(KEY, "MEMORY.md", """
                # Notes about Douglas

                ## Crystal Pointers

                _Use memory_search if user asks about these topics:_
                - The lake trip in May (lake trip May)
                """);
        try (WorkingMemoryProvider memories = provider(store)) {
            assertThat(memories.memory(USER).render())
                    .contains("_Topics of earlier conversations:_\n- The lake trip in May (lake trip May)")
                    .doesNotContain("memory_search");

            memories.memoryToolNames().register(MemoryToolNames.MEMORY_SEARCH);
            assertThat(memories.memory(USER).render())
                    .contains("_Use memory_search if user asks about these topics:_\n- The lake trip in May");
        }
    }

    @Test
    void should_migrate_a_hand_written_memory_md_once_and_keep_it_above_the_first_dream(@TempDir Path root) {
        String original = handWritten();
        assertThat(original.split("\\s+")).hasSizeGreaterThanOrEqualTo(6_000);
        FileWorkingMemoryStore store = new FileWorkingMemoryStore(root);
        store.putDocument(KEY, "MEMORY.md", original); // as a user puts MEMORY.md into the resource's directory
        String scope = MemoryKey.of(USER).crystalScope();
        int chunks;
        try (WorkingMemoryProvider memories = provider(store)) {
            String block = memories.memory(USER).render();

            assertThat(store.getDocument(KEY, "MEMORY.md.seed-backup")).contains(original);
            assertThat(store.getDocument(KEY, "seed-migration.json")).hasValueSatisfying(flag ->
                    assertThat(flag).contains("\"crystals\" : true"));
            chunks = memories.crystalStore().orElseThrow().count(scope);
            // 400 tokens (1,600 characters by the default estimator) with 80 of overlap: about 1,280 new characters each
            assertThat(chunks).isBetween(original.length() / 1_600, original.length() / 1_200 + 1);
            List<MemoryHit> hits = memories.memory(USER).search("quokka37", 3);
            assertThat(hits).isNotEmpty();
            assertThat(hits.get(0).kind()).isEqualTo(CrystalKind.MIGRATED);
            assertThat(hits.get(0).text()).contains("quokka37").hasSizeLessThanOrEqualTo(1_600);
            // no memory_search was made for this provider: the cut state does not tell the model to call it
            assertThat(block).contains("<state>\n# My notes about Douglas", StateBudget.CUT_MARKER)
                    .doesNotContain("memory_search");
            memories.memoryToolNames().register(MemoryToolNames.MEMORY_SEARCH); // as the tools module's bean does
            assertThat(memories.memory(USER).render()).contains(StateBudget.TRUNCATION_MARKER);
        }

        // a crash after the backup and the crystals, before the flag: the migration runs again, to the same result
        store.deleteDocument(KEY, "seed-migration.json");
        try (WorkingMemoryProvider memories = provider(store)) {
            memories.memory(USER);
            assertThat(store.getDocument(KEY, "seed-migration.json")).isPresent();
            assertThat(memories.crystalStore().orElseThrow().count(scope)).isEqualTo(chunks);
            assertThat(store.getDocument(KEY, "MEMORY.md.seed-backup")).contains(original);
        }

        try (WorkingMemoryProvider memories = provider(store)) {
            memories.memory(USER);
            assertThat(memories.crystalStore().orElseThrow().count(scope)).isEqualTo(chunks); // ran once
            memories.memory(USER).notes().note("User's name is Douglas, prefers tabs over spaces", 0.8, null);
            memories.memory(USER).notes().note("Deadline for the API migration is March 20th", 0.8, null);

            DreamReport first = memories.dream(USER);

            assertThat(first.committed()).as(first.toString()).isTrue();
            assertThat(first.reason()).contains("first dream after the seed migration");
            String state = memories.dreamEngine().state(USER).orElseThrow();
            assertThat(state).startsWith(original.strip());
            String generated = state.substring(original.strip().length());
            assertThat(generated).contains("---", "<!-- Dream-generated working memory follows", "## Dream-Generated");
            assertThat(generated.substring(generated.indexOf("## Dream-Generated")))
                    .contains("# Working Memory State", "## Active Context", "Douglas");
            assertThat(migratedCrystals(memories)).isPositive();

            memories.memory(USER).notes().note("The team deploys with GitHub Actions", 0.7, null);
            DreamReport second = memories.dream(USER);

            assertThat(second.committed()).as(second.toString()).isTrue();
            assertThat(memories.dreamEngine().state(USER).orElseThrow()).startsWith("# Working Memory State")
                    .doesNotContain("## Dream-Generated", "quokka37 while").contains("tabs over spaces");
            assertThat(store.getDocument(KEY, "MEMORY.md.seed-backup")).contains(original);
        }
    }

    @Test
    void should_migrate_a_seed_file_given_to_the_builder_without_crystals(@TempDir Path dir) throws IOException {
        Path seed = Files.writeString(dir.resolve("MEMORY.md"), "# About Ann\n\nAnn runs the bakery on Elm Street.\n");
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().store(store).withoutCrystals()
                .dreams(DreamConfig.builder().scheduled(false).seedFile("ann", seed).build()).build()) {
            String block = memories.memory("ann").render();

            String key = MemoryKey.of("ann").resourceStoreKey();
            assertThat(store.getDocument(key, "MEMORY.md.seed-backup")).contains(Files.readString(seed));
            assertThat(store.getDocument(key, "MEMORY.md")).contains(Files.readString(seed));
            assertThat(store.getDocument(key, "seed-migration.json")).hasValueSatisfying(flag ->
                    assertThat(flag).contains("\"crystals\" : false"));
            assertThat(block).contains("<state>\n# About Ann\n\nAnn runs the bakery on Elm Street.\n</state>");
        }
    }
}
