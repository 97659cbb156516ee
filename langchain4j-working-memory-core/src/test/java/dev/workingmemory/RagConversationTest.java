package dev.workingmemory;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.listener.ChatModelRequestContext;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.input.PromptTemplate;
import dev.langchain4j.rag.DefaultRetrievalAugmentor;
import dev.langchain4j.rag.content.injector.DefaultContentInjector;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.content.retriever.EmbeddingStoreContentRetriever;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.workingmemory.context.PressureSample;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.internal.CharsPerTokenEstimator;
import dev.workingmemory.internal.MessageText;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A support chat of 25 turns through {@code AiServices} with retrieval augmentation: an
 * {@code EmbeddingStoreContentRetriever} (3 results) over an {@code InMemoryEmbeddingStore} of 30 short product and
 * policy documents (all-MiniLM-L6-v2, in process), two of the application's tools, and the memory of the default
 * builder. What the memory keeps of what the user said, what it keeps of the documents, and what the model is sent
 * (the README's "Using with RAG" quotes these figures).
 */
class RagConversationTest {

    interface Assistant {
        String chat(@MemoryId String user, @dev.langchain4j.service.UserMessage String message);
    }

    /** The shop's own tools: their JSON results are the tool-using assistant's part of the conversation. */
    static final class ShopTools {
        @Tool("Changes the customer's Protect plan")
        String changePlan(String plan, String billing) {
            return "{\"subscription\": {\"id\": \"sub-7781\", \"plan\": \"" + plan + "\", \"billing\": \"" + billing
                    + "\"}}";
        }

        @Tool("Ships the replacement of an order")
        String shipReplacement(String order, String speed) {
            return "{\"shipment\": {\"id\": \"shp-30412\", \"order\": \"" + order + "\", \"speed\": \"" + speed
                    + "\", \"status\": \"label created\"}}";
        }
    }

    record Turn(String user, String tool, String toolArguments, String answer) {
    }

    /** What one conversation left: the model's requests, and the memory's crystals, searches, block and state. */
    record Run(List<ChatRequest> requests, List<Crystal> crystals,
               List<MemoryHit> orderHits, List<MemoryHit> clickingHits, String block, String state) {

        ChatRequest last() {
            return requests.get(requests.size() - 1);
        }

        int crystalChars() {
            return crystals.stream().mapToInt(crystal -> crystal.text().length()).sum();
        }

        int crystalDocumentChars() {
            return crystals.stream().mapToInt(crystal -> documentChars(crystal.text())).sum();
        }

        /** The user messages of the last request that hold text of the documents. */
        long userMessagesWithDocuments() {
            return last().messages().stream().filter(message -> message instanceof UserMessage user
                    && documentChars(MessageText.of(user)) > 0).count();
        }

        void print(String name) {
            System.out.printf(Locale.ROOT, "RAG, %s: last request %,d chars (%d user messages holding documents);"
                            + " %d crystals, %,d chars, %,d of them document text; block %d chars;"
                            + " 'my order number' first hit: %s; the user's turn at %d%nblock:%n%s%n",
                    name, chars(last()), userMessagesWithDocuments(), crystals.size(), crystalChars(),
                    crystalDocumentChars(), block.length(), orderHits.isEmpty() ? "none"
                            : orderHits.get(0).tokens() + " tokens, " + orderHits.get(0).text().replace("\n", " / "),
                    orderHits.stream().map(MemoryHit::text).toList().indexOf(orderHits.stream().map(MemoryHit::text)
                            .filter(text -> text.contains("Order number LM-48213")).findFirst().orElse("")) + 1,
                    block);
        }
    }

    private static final String OWN_TEMPLATE =
            "Use the documents below to answer.\n\n{{contents}}\n\nQuestion: {{userMessage}}";

    private static EmbeddingModel embeddings;
    private static InMemoryEmbeddingStore<TextSegment> knowledgeBase;
    private static List<String> documents;
    private static List<Turn> turns;
    private static String conversationText;

    @BeforeAll
    static void loadKnowledgeBase() throws IOException {
        embeddings = new AllMiniLmL6V2EmbeddingModel();
        documents = Arrays.stream(resource("rag/knowledge-base.txt").split("\n\n"))
                .map(String::strip)
                .map(document -> document.startsWith("#") ? document.substring(document.indexOf('\n') + 1) : document)
                .toList();
        knowledgeBase = new InMemoryEmbeddingStore<>();
        List<TextSegment> segments = documents.stream().map(TextSegment::from).toList();
        knowledgeBase.addAll(embeddings.embedAll(segments).content(), segments);
        conversationText = resource("rag/support-conversation.txt");
        turns = new ArrayList<>();
        String user = null;
        String[] tool = null;
        for (String line : conversationText.split("\n")) {
            if (line.startsWith("user: ")) {
                user = line.substring(6);
                tool = null;
            } else if (line.startsWith("tool: ")) {
                tool = line.substring(6).split(" ", 2);
            } else if (line.startsWith("assistant: ")) {
                turns.add(new Turn(user, tool == null ? null : tool[0], tool == null ? null : tool[1],
                        line.substring(11)));
            }
        }
    }

    @Test
    void should_keep_what_the_user_said_apart_from_the_documents_langchain4js_default_injector_appends() {
        Run run = run(WorkingMemoryProvider.builder(), rag -> rag.contentRetriever(retriever()));
        run.print("contentRetriever, LangChain4j's defaults");

        // LangChain4j stores the augmented message: every user message of the window is sent with its documents again
        assertThat(run.userMessagesWithDocuments()).isEqualTo(run.last().messages().stream()
                .filter(UserMessage.class::isInstance).count()).isGreaterThan(5);
        // the memory's own parts hold what was said: its past turns, searches, block and state
        assertThat(run.crystalDocumentChars()).isLessThan(run.crystalChars() / 20);
        assertThat(run.orderHits().get(0).text()).startsWith("user: It's the Aurora 2").contains("LM-48213");
        assertThat(run.clickingHits().subList(0, 3)).extracting(MemoryHit::text)
                .anySatisfy(text -> assertThat(text).contains("mostly at night"));
        assertThat(documentTitlesNeverSaid(run.block() + run.state())).isEmpty();
    }

    @Test
    void should_keep_the_documents_out_of_the_memory_with_storeRetrievedContentInChatMemory_false() {
        UnaryOperator<AiServices<Assistant>> ownTemplate = rag -> rag.retrievalAugmentor(
                DefaultRetrievalAugmentor.builder().contentRetriever(retriever())
                        .contentInjector(new DefaultContentInjector(PromptTemplate.from(OWN_TEMPLATE))).build());
        Run stored = run(WorkingMemoryProvider.builder(), ownTemplate);
        stored.print("own injector template, LangChain4j's defaults");
        Run notStored = run(WorkingMemoryProvider.builder(),
                rag -> ownTemplate.apply(rag).storeRetrievedContentInChatMemory(false));
        notStored.print("own injector template, storeRetrievedContentInChatMemory(false)");

        // the README's warning: the memory cannot tell an application's template from the user's words
        assertThat(stored.crystalDocumentChars()).isGreaterThan(stored.crystalChars() / 2);
        assertThat(stored.orderHits().get(0).text()).doesNotStartWith("user: It's the Aurora 2");
        assertThat(documentTitlesNeverSaid(stored.state())).isNotEmpty();

        // the advice: each request of a turn carries the turn's documents, the tool loop's included ...
        for (ChatRequest request : notStored.requests()) {
            assertThat(MessageText.of(lastUserMessage(request))).startsWith("Use the documents below to answer.");
        }
        assertThat(notStored.requests()).filteredOn(request -> request.messages()
                .get(request.messages().size() - 1) instanceof ToolExecutionResultMessage).hasSize(2);
        // ... the documents of earlier turns are not sent again ...
        assertThat(notStored.userMessagesWithDocuments()).isEqualTo(1);
        assertThat(chars(notStored.last())).isLessThan(chars(stored.last()) / 3);
        // ... and the memory keeps what the user said
        assertThat(notStored.crystalDocumentChars()).isLessThan(notStored.crystalChars() / 20);
        assertThat(notStored.orderHits().get(0).text()).startsWith("user: It's the Aurora 2").contains("LM-48213");
        assertThat(notStored.clickingHits().subList(0, 3)).extracting(MemoryHit::text)
                .anySatisfy(text -> assertThat(text).contains("mostly at night"));
        assertThat(documentTitlesNeverSaid(notStored.block() + notStored.state())).isEmpty();
    }

    @Test
    void should_count_the_documents_it_does_not_store_in_the_context_pressure() {
        List<int[]> measuredAndSent = new ArrayList<>();
        Run run = run(WorkingMemoryProvider.builder().contextWindow(4_000), (rag, memories) -> {
            ChatModelListener recorder = new ChatModelListener() {
                @Override
                public void onRequest(ChatModelRequestContext context) {
                    // the memory measured this request in the messages() call that made it, its last
                    List<PressureSample> history = memories.memory("dana").contextPressure().history();
                    measuredAndSent.add(new int[] {history.get(history.size() - 1).tokens(),
                            CharsPerTokenEstimator.INSTANCE.estimateTokenCountInMessages(
                                    context.chatRequest().messages())});
                }
            };
            ScriptedChatModel model = script().listeners(memories.chatModelListener(), recorder);
            return rag.chatModel(model).contentRetriever(retriever()).storeRetrievedContentInChatMemory(false);
        });

        assertThat(measuredAndSent).hasSameSizeAs(run.requests()).hasSize(turns.size() + 2);
        List<String> under = new ArrayList<>();
        // the listener cannot tell the conversation's first request (no system message, nothing held yet) from
        // another's, so the second has no figure to go by; from the third on, each is measured as it is sent
        for (int i = 2; i < measuredAndSent.size(); i++) {
            if (measuredAndSent.get(i)[0] < measuredAndSent.get(i)[1] * 9 / 10) {
                under.add("request " + (i + 1) + ": measured " + measuredAndSent.get(i)[0] + " of "
                        + measuredAndSent.get(i)[1]);
            }
        }
        assertThat(under).as("requests measured under 90% of what was sent").isEmpty();
    }

    // ---- the conversation -------------------------------------------------------------------------------------

    private static Run run(WorkingMemoryProvider.Builder memory, UnaryOperator<AiServices<Assistant>> rag) {
        return run(memory, (builder, memories) -> rag.apply(builder.chatModel(script())));
    }

    /** The conversation through an assistant that {@code rag} gives its model and retrieval. */
    private static Run run(WorkingMemoryProvider.Builder memory,
                           BiFunction<AiServices<Assistant>, WorkingMemoryProvider, AiServices<Assistant>> rag) {
        try (WorkingMemoryProvider memories = memory.build()) {
            Assistant assistant = rag.apply(AiServices.builder(Assistant.class).chatMemoryProvider(memories)
                    .tools(new ShopTools()), memories).build();
            List<MemoryHit> orderHits = List.of();
            List<MemoryHit> clickingHits = List.of();
            for (Turn turn : turns) {
                // the model would search its memory for these: what the search finds then
                if (turn.user().startsWith("Wait, what was my order number")) {
                    orderHits = memories.memory("dana").search("my order number", 5);
                }
                if (turn.user().startsWith("And what did I tell you earlier")) {
                    clickingHits = memories.memory("dana").search("when does the clicking happen", 5);
                }
                assistant.chat("dana", turn.user());
            }
            memories.consolidate(); // the scheduler's salience notes, as after a minute
            String block = memories.memory("dana").render();
            memories.dream("dana");
            String state = memories.dreamState("dana").orElse("");
            List<Crystal> crystals = memories.crystalStore().orElseThrow()
                    .recent(memories.keyOf("dana").crystalScope(), Instant.EPOCH, 1_000);
            return new Run(SCRIPTS.get().requests(), crystals, orderHits, clickingHits, block, state);
        }
    }

    /** The model of the conversation running on this thread. */
    private static final ThreadLocal<ScriptedChatModel> SCRIPTS = new ThreadLocal<>();

    /** The model: each turn's answer, after the turn's tool call when it has one. */
    private static ScriptedChatModel script() {
        ScriptedChatModel model = ScriptedChatModel.script();
        SCRIPTS.set(model);
        for (Turn turn : turns) {
            if (turn.tool() != null) {
                model.thenCallTool(turn.tool(), turn.toolArguments());
            }
            model.thenAnswer(turn.answer());
        }
        return model;
    }

    private static ContentRetriever retriever() {
        return EmbeddingStoreContentRetriever.builder().embeddingStore(knowledgeBase).embeddingModel(embeddings)
                .maxResults(3).build();
    }

    // ---- measures ---------------------------------------------------------------------------------------------

    private static UserMessage lastUserMessage(ChatRequest request) {
        List<ChatMessage> messages = request.messages();
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof UserMessage user) {
                return user;
            }
        }
        throw new AssertionError("no user message in " + request);
    }

    private static int chars(ChatRequest request) {
        int chars = 0;
        for (ChatMessage message : request.messages()) {
            if (message instanceof UserMessage user) {
                chars += MessageText.of(user).length();
            } else if (message instanceof AiMessage ai && ai.text() != null) {
                chars += ai.text().length();
            } else if (message instanceof SystemMessage system) {
                chars += system.text().length();
            } else if (message instanceof ToolExecutionResultMessage result) {
                chars += MessageText.of(result).length();
            }
        }
        return chars;
    }

    /** The characters of {@code text} in sentences of the documents (a sentence over 30 characters, verbatim). */
    private static int documentChars(String text) {
        int chars = 0;
        for (String document : documents) {
            for (String sentence : document.split("(?<=\\.) ")) {
                if (sentence.length() > 30 && text.contains(sentence)) {
                    chars += sentence.length();
                }
            }
        }
        return chars;
    }

    /** The titles of documents (their first sentence) found in {@code text} that no one in the conversation said. */
    private static List<String> documentTitlesNeverSaid(String text) {
        String said = conversationText.toLowerCase(Locale.ROOT);
        return documents.stream().map(document -> document.substring(0, document.indexOf('.')))
                .filter(title -> !said.contains(title.toLowerCase(Locale.ROOT)))
                .filter(title -> text.toLowerCase(Locale.ROOT).contains(title.toLowerCase(Locale.ROOT)))
                .toList();
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = RagConversationTest.class.getClassLoader().getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
