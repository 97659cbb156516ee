package dev.workingmemory.slots;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.store.FileWorkingMemoryStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The session layer registered through the generic layer API of the provider, fed through the {@code ChatMemory}. */
class SessionSlotsProviderTest {

    @TempDir
    Path dir;

    private static final String JAVAC = """
            src/main/java/com/acme/Invoice.java:57: error: ';' expected
                    total = total.add(line.amount())
                                                    ^
            1 error""";
    private static final String TRACE = """
            Exception in thread "main" java.lang.NullPointerException: Cannot invoke "String.length()" because "name" is null
            \tat com.acme.Names.normalize(Names.java:12)
            \tat com.acme.App.main(App.java:7)""";

    private static void toolTurn(ChatMemory chat, String id, String output) {
        toolTurn(chat, id, "mvn -q test", output);
    }

    private static void toolTurn(ChatMemory chat, String id, String command, String output) {
        chat.add(AiMessage.from(ToolExecutionRequest.builder().id(id).name("bash")
                .arguments("{\"command\":\"" + command + "\"}").build()));
        chat.add(ToolExecutionResultMessage.from(id, "bash", output));
    }

    @Test
    void should_show_errors_from_tool_results_under_session_in_the_system_message() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .sessionSlots(SessionSlotsConfig.defaults())
                .build();
        ChatMemory chat = memories.get("dev");
        chat.add(SystemMessage.from("You are a coding agent."));
        chat.add(UserMessage.from("Build it. Let's use Java 17 for now."));
        toolTurn(chat, "c1", "mvn -q compile", JAVAC);
        toolTurn(chat, "c2", TRACE);

        String system = ((SystemMessage) chat.messages().get(0)).text();

        assertThat(system).contains("""
                <session>
                errors (2/3):
                - NullPointerException: Cannot invoke "String.length()" because "name" is null at Names.normalize(Names.java:12)
                - Invoice.java:57: ';' expected
                decisions (1/5):
                - Let's use Java 17 for now
                pool (1):
                - src/main/java/com/acme/Invoice.java
                </session>""");
        WorkingMemory memory = memories.memory("dev");
        assertThat(memory.layer(SessionSlots.class)).isPresent();
        memories.close();
    }

    @Test
    void should_drop_the_oldest_error_and_empty_the_slot_on_request() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .sessionSlots(SessionSlotsConfig.defaults())
                .build();
        ChatMemory chat = memories.get("dev");
        for (int i = 1; i <= 4; i++) {
            toolTurn(chat, "c" + i, "mvn -q -pl module-" + i + " compile",
                    "src/A" + i + ".java:" + i + ": error: broken " + i + "\n1 error");
        }
        SessionSlots session = memories.memory("dev").layer(SessionSlots.class).orElseThrow();

        assertThat(session.items("error")).containsExactly("A4.java:4: broken 4", "A3.java:3: broken 3", "A2.java:2: broken 2");

        session.clearSlot("error");

        assertThat(memories.memory("dev").render()).doesNotContain("errors (");
        memories.close();
    }

    @Test
    void should_keep_slots_and_pool_across_a_restart() {
        WorkingMemoryProvider first = WorkingMemoryProvider.builder()
                .store(new FileWorkingMemoryStore(dir))
                .sessionSlots(SessionSlotsConfig.defaults())
                .build();
        ChatMemory chat = first.get("dev");
        toolTurn(chat, "c1", JAVAC);
        first.memory("dev").layer(SessionSlots.class).orElseThrow().add("todo", "add a regression test");
        String before = first.memory("dev").render();
        first.close();

        WorkingMemoryProvider second = WorkingMemoryProvider.builder()
                .store(new FileWorkingMemoryStore(dir))
                .sessionSlots(SessionSlotsConfig.defaults())
                .build();

        assertThat(second.memory("dev").render()).isEqualTo(before).contains("- add a regression test");
        second.close();
    }

    @Test
    void should_count_tool_call_arguments_as_mentions_of_pool_items() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .sessionSlots(SessionSlotsConfig.defaults())
                .build();
        ChatMemory chat = memories.get("dev");
        toolTurn(chat, "c1", JAVAC);
        ChatMessage readFile = AiMessage.from(ToolExecutionRequest.builder().id("c2").name("read_file")
                .arguments("{\"path\":\"src/main/java/com/acme/Invoice.java\"}").build());
        chat.add(readFile);

        SessionSlots session = memories.memory("dev").layer(SessionSlots.class).orElseThrow();

        assertThat(session.pool()).singleElement().extracting(PoolItem::mentions).isEqualTo(1);
        memories.close();
    }

    @Test
    void should_wait_for_evidence_by_default_and_show_which_layers_act() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        ChatMemory chat = memories.get("dev");
        chat.add(UserMessage.from("Let's use Java 17 for now."));

        WorkingMemory memory = memories.memory("dev");
        assertThat(memory.activeLayers()).doesNotContain(SessionSlots.NAME).contains("entities", "core_memory");
        assertThat(memory.render()).doesNotContain("<session>");

        toolTurn(chat, "c1", JAVAC);

        assertThat(memory.activeLayers()).contains(SessionSlots.NAME);
        assertThat(memory.sessionSlots().items("decision")).containsExactly("Let's use Java 17 for now");
        assertThat(memory.render()).contains("<session>");
        memories.close();
    }

    @Test
    void should_wait_past_a_persons_message_that_quotes_a_trace_and_take_its_error_once_a_build_acts() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        ChatMemory chat = memories.get("dev");
        chat.add(UserMessage.from("Fix the crash from the ticket."));
        toolTurn(chat, "c1", "gh issue view 42",
                "Hi, since this morning my app closes when I start it from the menu. This is what it said:\n"
                + TRACE + "\nPlease help, we need the app for our shop on Saturday.");

        WorkingMemory memory = memories.memory("dev");
        assertThat(memory.activeLayers()).doesNotContain(SessionSlots.NAME);
        assertThat(memory.render()).doesNotContain("<session>");

        toolTurn(chat, "c2", JAVAC);

        assertThat(memory.activeLayers()).contains(SessionSlots.NAME);
        assertThat(memory.sessionSlots().items("error")).anySatisfy(error -> assertThat(error).contains("Invoice.java:57"))
                .anySatisfy(error -> assertThat(error).contains("NullPointerException"));
        memories.close();
    }

    @Test
    void should_act_from_the_first_message_for_a_configured_coding_agent_and_never_for_a_configured_chat() {
        WorkingMemoryProvider coding = WorkingMemoryProvider.builder().codingAgent(true).build();
        WorkingMemoryProvider chat = WorkingMemoryProvider.builder().codingAgent(false).build();

        coding.get("dev").add(UserMessage.from("Let's use Java 17 for now."));
        toolTurn(chat.get("dev"), "c1", JAVAC);

        assertThat(coding.memory("dev").sessionSlots().items("decision")).containsExactly("Let's use Java 17 for now");
        assertThat(coding.memory("dev").activeLayers()).contains(SessionSlots.NAME);
        assertThat(chat.memory("dev").sessionSlots().items("error")).isEmpty();
        assertThat(chat.memory("dev").activeLayers()).doesNotContain(SessionSlots.NAME);
        coding.close();
        chat.close();
    }

    @Test
    void should_reject_a_coding_agent_without_session_slots() {
        WorkingMemoryProvider.Builder builder = WorkingMemoryProvider.builder().codingAgent(true).withoutSessionSlots();

        org.assertj.core.api.Assertions.assertThatThrownBy(builder::build).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("codingAgent(true)").hasMessageContaining("withoutSessionSlots()");
        WorkingMemoryProvider plain = WorkingMemoryProvider.builder().codingAgent(false).withoutSessionSlots().build();
        assertThat(plain.sessionSlotsConfig()).isEmpty();
        plain.close();
    }

    @Test
    void should_keep_acting_after_a_restart_on_the_file_store() {
        WorkingMemoryProvider first = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir)).build();
        toolTurn(first.get("dev"), "c1", JAVAC);
        first.close();

        WorkingMemoryProvider second = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir)).build();
        second.get("dev").add(UserMessage.from("Never commit to main."));

        assertThat(second.memory("dev").sessionSlots().items("decision")).containsExactly("Never commit to main");
        second.close();
    }

    @Test
    void should_replace_what_a_call_said_when_the_same_call_runs_again() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        ChatMemory chat = memories.get("dev");
        toolTurn(chat, "c1", "mvn -q compile", JAVAC);
        toolTurn(chat, "c2", "mvn -q test", TRACE);
        SessionSlots session = memories.memory("dev").sessionSlots();
        session.add("error", "PaymentIT times out on CI");

        assertThat(session.items("error")).hasSize(3);

        // the same call, written with other spacing, now passes: its error is gone, the others stay
        chat.add(AiMessage.from(ToolExecutionRequest.builder().id("c3").name("bash")
                .arguments("{ \"command\" : \"mvn -q compile\" }").build()));
        chat.add(ToolExecutionResultMessage.from("c3", "bash", "[INFO] BUILD SUCCESS"));

        assertThat(session.items("error")).containsExactly("PaymentIT times out on CI",
                "NullPointerException: Cannot invoke \"String.length()\" because \"name\" is null"
                        + " at Names.normalize(Names.java:12)");

        toolTurn(chat, "c4", "mvn -q test", "src/main/java/com/acme/Names.java:12: error: cannot find symbol\n1 error");

        assertThat(session.items("error")).as("what the test run says now replaces what it said before")
                .containsExactly("Names.java:12: cannot find symbol", "PaymentIT times out on CI");
        memories.close();
    }

    @Test
    void should_keep_the_items_of_a_call_with_other_arguments_or_an_unseen_request() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        ChatMemory chat = memories.get("dev");
        toolTurn(chat, "c1", "mvn -q -pl billing compile", JAVAC);
        chat.add(ToolExecutionResultMessage.from("c9", "bash", TRACE)); // its request was never added

        toolTurn(chat, "c2", "mvn -q -pl shipping compile", "[INFO] BUILD SUCCESS");
        chat.add(ToolExecutionResultMessage.from("c9", "bash", "[INFO] BUILD SUCCESS"));

        assertThat(memories.memory("dev").sessionSlots().items("error")).hasSize(2);
        memories.close();
    }

    @Test
    void should_replace_what_a_call_said_before_a_restart() {
        WorkingMemoryProvider first = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir)).build();
        toolTurn(first.get("dev"), "c1", "mvn -q compile", JAVAC);
        toolTurn(first.get("dev"), "c2", "mvn -q test", TRACE);
        first.close();

        WorkingMemoryProvider second = WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(dir)).build();
        toolTurn(second.get("dev"), "c3", "mvn -q compile", "[INFO] BUILD SUCCESS");

        assertThat(second.memory("dev").sessionSlots().items("error")).singleElement()
                .satisfies(error -> assertThat(error).startsWith("NullPointerException"));
        second.close();
    }
}
