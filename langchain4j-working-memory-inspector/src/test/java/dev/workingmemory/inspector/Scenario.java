package dev.workingmemory.inspector;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.listener.ChatModelRequestContext;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.context.ToolOutputCache;
import dev.workingmemory.dream.DreamConfig;
import dev.workingmemory.dream.DreamReport;
import dev.workingmemory.testing.ScriptedChatModel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A provider with one user who has been through what the inspector shows: a CMS conversation (an entity, a pruned
 * 400-line tool output), notes, two committed dreams (the second drops a line of the first's state) and a third
 * rejected by a collapse guard, with a note left pending. Dreams come from a scripted dream model: no LLM is called.
 */
final class Scenario implements AutoCloseable {

    /** A line the first dream writes and the second drops: the diff shows it removed. */
    static final String DROPPED_LINE = "- Prefers tabs over spaces in every repository he owns";
    static final String PENDING_NOTE = "The launch of the About Us page moved to April 2nd";

    final WorkingMemoryProvider provider;
    /** The reports of the three dreams, in order. */
    final List<DreamReport> reports = new ArrayList<>();

    private Scenario(WorkingMemoryProvider provider) {
        this.provider = provider;
    }

    static Scenario build() {
        return build("alice", "default", "About Us", "test line", List.of());
    }

    /**
     * @param resource   the user
     * @param thread     its thread
     * @param pageTitle  the title of the page the CMS tool returns (an entity name)
     * @param outputLine the text of each line of the 400-line tool output
     * @param stateLines more lines of the Active Context section of every committed state
     */
    static Scenario build(String resource, String thread, String pageTitle, String outputLine, List<String> stateLines) {
        AtomicReference<String> next = new AtomicReference<>();
        ScriptedChatModel dreamModel = ScriptedChatModel.answering(request -> AiMessage.from(next.get()));
        // a 16K-token model and a block of 1,200 characters: the state is cut to fit beside the other layers
        WorkingMemoryProvider provider = WorkingMemoryProvider.builder().dreamModel(dreamModel).contextWindow(16_000)
                .blockBudget(1_200).dreams(DreamConfig.builder().scheduled(false).build()).build();
        Scenario scenario = new Scenario(provider);
        MemoryKey key = MemoryKey.of(resource, thread);
        ChatMemory chat = provider.get(key);
        chat.add(SystemMessage.from("You are a CMS assistant."));
        chat.add(UserMessage.from("Create a page called " + pageTitle));
        chat.add(AiMessage.from(call("c1", "cms_createPage")));
        chat.add(ToolExecutionResultMessage.from("c1", "cms_createPage",
                "{\"page\":{\"id\":\"page-123\",\"title\":" + jsonString(pageTitle) + "}}"));
        chat.add(AiMessage.from(call("c2", "bash")));
        chat.add(ToolExecutionResultMessage.from("c2", "bash", IntStream.rangeClosed(1, 400)
                .mapToObj(i -> outputLine + " " + i).collect(Collectors.joining("\n"))));
        chat.add(AiMessage.from("Created the page; the 400 checks passed."));
        chat.messages();

        provider.memory(key).notes().note("User's name is Douglas, he prefers tabs over spaces", 0.8, null);
        next.set(state(stateLines, DROPPED_LINE));
        scenario.reports.add(provider.dream(key));
        provider.memory(key).notes().note("Deadline for the API migration is March 20th", 0.9, null);
        next.set(state(stateLines, "- Deadline for the API migration is March 20th"));
        scenario.reports.add(provider.dream(key));
        provider.memory(key).notes().note(PENDING_NOTE, 0.7, null);
        next.set("lol");
        scenario.reports.add(provider.dream(key));
        provider.memory(key).coreMemory().replace("goal", "Publish the " + pageTitle + " page before the launch");
        chat.add(UserMessage.from("What is left before the launch?"));
        // the model, with the provider's listener, is sent the request with the application's two tools
        List<ToolSpecification> tools = List.of(ToolSpecification.builder().name("cms_createPage").build(),
                ToolSpecification.builder().name("bash").build());
        provider.chatModelListener().onRequest(new ChatModelRequestContext(ChatRequest.builder()
                .messages(chat.messages()).toolSpecifications(tools).build(), ModelProvider.OTHER, new HashMap<>()));
        scenario.awaitCachedOutput(key);
        provider.search(key, "launch", 1); // waits for the crystals' indexing, which the page's search would wait for
        return scenario;
    }

    private void awaitCachedOutput(MemoryKey key) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (provider.store().documents(key.threadStoreKey()).stream()
                .noneMatch(document -> ToolOutputCache.isEntryName(document.name()))) {
            assertThat(System.nanoTime()).as("the pruned output is cached").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    /** A state document with every section of the default schema, mature enough for the guards. */
    static String state(List<String> activeContext, String extraLine) {
        List<String> active = new ArrayList<>(activeContext);
        active.add("- Building the company website in the CMS, the About Us page first");
        active.add(extraLine);
        return String.join("\n",
                "# Working Memory State",
                "_Last dream: 2026-03-12 | Mood: focused_",
                "",
                "## The Phenotype",
                "- Douglas, a backend developer who works late and writes terse messages",
                "",
                "## The Bond",
                "- Trusts the assistant with the CMS and asks for short answers",
                "",
                "## The Niche",
                "- Runs a small agency; deploys with GitHub Actions to Kubernetes",
                "",
                "## Active Context",
                String.join("\n", active),
                "",
                "## Crystal Pointers",
                "- Past: API migration deadline → search: `migration deadline March`",
                "",
                "## Curiosity Gaps",
                "- Which logging stack does production use?",
                "",
                "## Emerging Skills",
                "- Reviews pull requests in the CMS repository before lunch");
    }

    private static ToolExecutionRequest call(String id, String name) {
        return ToolExecutionRequest.builder().id(id).name(name).arguments("{}").build();
    }

    private static String jsonString(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\');
            }
            out.append(c);
        }
        return out.append('"').toString();
    }

    @Override
    public void close() {
        provider.close();
    }
}
