package dev.workingmemory;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderResult;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.EmbeddedCrystalStore;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.internal.CrystalIds;
import dev.workingmemory.internal.Passages;
import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import dev.workingmemory.testing.Await;
import dev.workingmemory.testing.HashingEmbeddingModel;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A tool server (MCP, say) names its tools as it likes: the name of a tool whose output the memory pruned becomes a
 * tag of the output's crystals, one term of the index that every user's crystals pass through. A name over Lucene's
 * 32,766 bytes made that indexer retry its batch for ever, so no user's crystals were indexed again and every
 * search waited its read-your-writes timeout and missed them.
 */
class ThirdPartyToolNamesTest {

    interface Assistant {
        String chat(@MemoryId String user, @UserMessage String message);
    }

    private static final String LONG_NAME = "fetch_page_" + "x".repeat(40_000);
    private static final String PAGE = IntStream.rangeClosed(1, 200)
            .mapToObj(i -> "line " + i + " of the fetched page about lighthouses and their keepers")
            .collect(Collectors.joining("\n"));

    /** Offers one tool named {@link #LONG_NAME} returning {@link #PAGE}, as a tool server's client would. */
    private static ToolProvider toolServer() {
        ToolSpecification page = ToolSpecification.builder().name(LONG_NAME).description("Fetches a page").build();
        ToolExecutor fetch = (request, memoryId) -> PAGE;
        return request -> ToolProviderResult.builder().add(page, fetch).build();
    }

    @Test
    void should_keep_indexing_every_users_crystals_after_a_tool_named_with_forty_thousand_characters() {
        InMemoryWorkingMemoryStore store = new InMemoryWorkingMemoryStore();
        try (CrystalStore crystals = EmbeddedCrystalStore.builder().embeddingModel(new HashingEmbeddingModel())
                .readYourWritesTimeout(Duration.ofSeconds(5)).build();
             WorkingMemoryProvider memories = WorkingMemoryProvider.builder().store(store).crystalStore(crystals)
                     .contextWindow(16_000).build()) {
            ScriptedChatModel model = ScriptedChatModel.script().thenCallTool(LONG_NAME, "{}")
                    .thenAnswer("It is about lighthouses.");
            Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).chatMemoryProvider(memories)
                    .toolProvider(toolServer()).build();
            assistant.chat("mallory", "Fetch the page please");
            // the pruned page is cached behind the turn, then its crystals are handed to the store
            String threadKey = MemoryKey.of("mallory").threadStoreKey();
            Await.until("the pruned page cached", Duration.ofSeconds(30), () -> !store.documents(threadKey).isEmpty());
            String entry = store.documents(threadKey).get(0).name();
            String firstPassage = Passages.id(CrystalIds.of("tool-output", MemoryKey.of("mallory").crystalScope(),
                    entry), 0);
            Await.until("the page's crystals handed over", Duration.ofSeconds(30),
                    () -> crystals.get(firstPassage).isPresent());

            memories.memory("alice").notes().note("Alice keeps a beagle called Biscuit", 0.8, null);
            long start = System.nanoTime();
            List<MemoryHit> hits = memories.search("alice", "beagle Biscuit", 5);

            assertThat(hits).extracting(MemoryHit::text).anyMatch(text -> text.contains("Biscuit"));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
            // the tag keeps the name's first characters
            assertThat(crystals.get(firstPassage).orElseThrow().tags())
                    .contains(LONG_NAME.substring(0, Crystal.MAX_TAG_LENGTH));
        }
    }

    @Test
    void should_refuse_a_crystal_whose_tag_is_longer_than_the_limit_saying_so() {
        assertThatThrownBy(() -> new Crystal("c-1", "alice", CrystalKind.NOTE, Instant.EPOCH, 0.5,
                List.of("t".repeat(Crystal.MAX_TAG_LENGTH + 1)), "text", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1000").hasMessageContaining("1001");
    }
}
