package dev.workingmemory.testing;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.crystal.CrystalStore;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Turns said before a {@code forget} and after it, in a window of four messages, and the check that nothing said before
 * came back afterwards: every store's forget tests use them.
 */
public final class ForgottenTurns {

    public static final String USER = "ann";
    /** Every turn before the forget says this word; none after it does. */
    private static final String OLD = "quokka";
    private static final Duration INDEXED = Duration.ofSeconds(60);

    private ForgottenTurns() {
    }

    /** Six turns that say {@link #OLD}: the first ones leave the window of four and become past turns. */
    public static void before(ChatMemory memory) {
        memory.add(SystemMessage.from("You are a helpful assistant."));
        for (int i = 1; i <= 6; i++) {
            memory.add(UserMessage.from("My " + OLD + " number " + i + " lives in the garden."));
            memory.add(AiMessage.from("Your " + OLD + " number " + i + " sounds lovely."));
        }
    }

    /** Turns after the forget, enough that everything before them leaves the window; none shows an earlier one. */
    public static void after(ChatMemory memory) {
        for (int i = 1; i <= 6; i++) {
            memory.add(UserMessage.from("Tell me about tea number " + i + "."));
            memory.add(AiMessage.from("Tea number " + i + " is green."));
            assertThat(memory.messages().toString()).doesNotContain(OLD);
        }
    }

    /**
     * Nothing said {@link #before} is in the user's crystals (text or context), found by a search, in the messages or
     * in the block, as each provider sees them once its crystals are written; what was said {@link #after} is.
     */
    public static void assertNoneBack(WorkingMemoryProvider... providers) {
        for (WorkingMemoryProvider provider : providers) {
            CrystalStore crystals = provider.crystalStore().orElseThrow();
            Await.until("the crystals written", INDEXED, () -> crystals.pendingCount() == 0);
            String scope = provider.keyOf(USER).crystalScope();
            List<Crystal> all = crystals.recent(scope, Instant.EPOCH, CrystalQuery.MAX_LIMIT);
            assertThat(all).as("the crystals kept after the forget").isNotEmpty()
                    .allSatisfy(crystal -> assertThat(crystal.text() + " " + crystal.context()).doesNotContain(OLD));
            assertThat(provider.search(USER, OLD + " garden lovely", 20)).as("a search after the forget")
                    .allSatisfy(hit -> assertThat(hit.text()).doesNotContain(OLD));
            assertThat(provider.get(USER).messages().toString()).doesNotContain(OLD).contains("Tea number 6");
            assertThat(provider.memory(USER).render()).doesNotContain(OLD);
        }
    }
}
