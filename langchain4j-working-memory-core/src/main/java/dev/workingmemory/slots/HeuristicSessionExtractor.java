package dev.workingmemory.slots;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.workingmemory.internal.Ensure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The default {@link SessionExtractor}: format-specific rules, tuned for precision over recall (a slot full of noise
 * makes the block worse than an empty one).
 *
 * <p><b>Tool results.</b> Errors, in this order of preference (the first kind found is used, at most
 * {@linkplain Builder#maxItemsPerSlot three}): compiler errors, failing tests and merge conflicts
 * ({@code BuildErrors}); else stack traces, as the root cause with its first project frame ({@code StackTraces});
 * else a build tool's failure summary, a non-zero exit code with the line before it, an {@code ERROR} log line, an
 * {@code error:} line ({@code FailureSummaries}). A JSON result yields only the error an API replied with. The files
 * of errors and the files {@code git status} lists as changed go to the pool. Dependencies: those that could not be
 * resolved, and one item per build file ({@code pom.xml}, Gradle script, {@code package.json},
 * {@code requirements.txt}) or import block listing its external packages. Results of the tools given to
 * {@link Builder#ignoredTools} are skipped (the {@link SessionSlots} layer never passes the results of the memory's
 * own tools: they echo the memory).
 *
 * <p><b>User messages.</b> Decisions and todos ({@code Statements}), files named (to the pool), and compiler errors
 * or stack traces pasted in. <b>The model's messages.</b> Decisions, todos and files named. TODO comments inside
 * code are not todos: only prose counts. <b>Todos done.</b> A user's or the model's statement that a todo's task is
 * done ({@link #done}).
 *
 * <p>Large texts are read as their first and last {@linkplain Builder#maxScanChars half million characters}; every
 * pattern runs on lines of at most 2,000 characters, so a 10 MB result costs linear time.
 *
 * <p>Immutable and thread-safe.
 */
public final class HeuristicSessionExtractor implements SessionExtractor {

    static final int DEFAULT_MAX_SCAN_CHARS = 1_000_000;
    /** JVM packages whose frames are not project code. */
    public static final List<String> DEFAULT_LIBRARY_PACKAGES = List.of(
            "java.", "javax.", "jdk.", "sun.", "com.sun.", "kotlin.", "kotlinx.", "scala.", "groovy.", "clojure.",
            "org.junit.", "junit.", "org.opentest4j.", "org.assertj.", "org.mockito.", "org.hamcrest.", "org.testng.",
            "org.apache.", "org.springframework.", "org.hibernate.", "com.fasterxml.", "io.netty.", "reactor.",
            "io.micronaut.", "io.quarkus.", "io.vertx.", "com.google.", "org.gradle.", "worker.org.gradle.", "org.slf4j.",
            "ch.qos.", "net.bytebuddy.", "org.eclipse.", "com.intellij.", "okhttp3.", "retrofit2.", "io.grpc.",
            "org.postgresql.", "com.zaxxer.", "org.jboss.", "jakarta.", "feign.", "io.reactivex.", "dev.langchain4j.");

    private static final Logger log = LoggerFactory.getLogger(HeuristicSessionExtractor.class);

    private final Set<String> ignoredTools;
    private final List<String> libraryPackages;
    private final boolean toolResults;
    private final boolean userMessages;
    private final boolean assistantMessages;
    private final int maxItemsPerSlot;
    private final int maxPoolItems;
    private final int maxScanChars;
    private final int maxItemChars;

    private HeuristicSessionExtractor(Builder builder) {
        this.ignoredTools = Set.copyOf(builder.ignoredTools);
        this.libraryPackages = List.copyOf(builder.libraryPackages);
        this.toolResults = builder.toolResults;
        this.userMessages = builder.userMessages;
        this.assistantMessages = builder.assistantMessages;
        this.maxItemsPerSlot = Ensure.positive(builder.maxItemsPerSlot, "maxItemsPerSlot");
        this.maxPoolItems = Ensure.notNegative(builder.maxPoolItems, "maxPoolItems");
        this.maxScanChars = Ensure.positive(builder.maxScanChars, "maxScanChars");
        this.maxItemChars = Ensure.positive(builder.maxItemChars, "maxItemChars");
    }

    /** A builder that starts from the default rules and limits. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public List<SessionItem> extract(ChatMessage message) {
        try {
            Found found = new Found(maxItemsPerSlot, maxPoolItems, maxItemChars);
            if (message instanceof ToolExecutionResultMessage result) {
                // a result may come without a tool name; an immutable set throws on contains(null)
                if (toolResults && (result.toolName() == null || !ignoredTools.contains(result.toolName()))) {
                    toolResult(Texts.window(Texts.of(result), maxScanChars), found);
                }
            } else if (message instanceof UserMessage) {
                if (userMessages) {
                    String text = Texts.window(Texts.of(message), maxScanChars);
                    prose(text, found);
                    List<String> lines = Texts.lines(text);
                    BuildErrors.find(lines, found);
                    if (!found.has(Found.ERROR)) {
                        StackTraces.find(lines, found, libraryPackages);
                    }
                }
            } else if (message instanceof AiMessage ai) {
                if (assistantMessages && ai.text() != null) {
                    prose(Texts.window(ai.text(), maxScanChars), found);
                }
            }
            return found.items();
        } catch (RuntimeException e) {
            // a rule that trips over some input must not cost the message its other items, nor the caller its turn
            log.warn("Session extraction failed on a {} message", message == null ? null : message.type(), e);
            return List.of();
        }
    }

    /**
     * The todos a user's message, or the model's, says are done ({@code Completions}): "the README is updated",
     * "done with the pagination", "I fixed the flaky OrderServiceTest", "- [x] add retries"; not "don't forget to
     * update the README", "is the README done?", "the README isn't updated yet".
     */
    @Override
    public List<SessionItem> done(ChatMessage message, List<SessionItem> held) {
        try {
            String text = null;
            if (message instanceof UserMessage && userMessages) {
                text = Texts.of(message);
            } else if (message instanceof AiMessage ai && assistantMessages) {
                text = ai.text();
            }
            return text == null || held.isEmpty() ? List.of() : Completions.find(Texts.window(text, maxScanChars), held);
        } catch (RuntimeException e) {
            log.warn("Finding completed todos failed on a {} message", message == null ? null : message.type(), e);
            return List.of();
        }
    }

    private void toolResult(String text, Found found) {
        JsonNode json = JsonReplies.parse(text);
        if (json == null) {
            output(text, found);
            return;
        }
        JsonReplies.find(json, found);
        Dependencies.declared(text, List.of(), json, found);
        try {
            // a command's output in a value ({"exit_code": 1, "stderr": "Traceback …"}, a tool returning a record)
            for (String output : CodingEvidence.outputs(text, false)) {
                output(output, found);
            }
        } catch (IOException e) {
            // parsed as JSON above; nothing more to read
        }
    }

    /** A tool's text output, read by the rules of each tool's format. */
    private void output(String text, Found found) {
        List<String> lines = Texts.lines(text);
        BuildErrors.find(lines, found);
        if (!found.has(Found.ERROR)) {
            StackTraces.find(lines, found, libraryPackages);
        }
        FailureSummaries.find(lines, found);
        UnresolvedDependencies.find(lines, found);
        if (!Dependencies.declared(text, lines, null, found)) {
            Imports.find(lines, found);
        }
        GitStatus.find(lines, found);
    }

    private static void prose(String text, Found found) {
        List<String> lines = Statements.proseLines(text);
        Statements.find(lines, found);
        for (String line : lines) {
            for (String path : FilePaths.inProse(line)) {
                found.path(path);
            }
        }
    }

    /** Builds a {@link HeuristicSessionExtractor}. Not thread-safe. */
    public static final class Builder {

        private Set<String> ignoredTools = Set.of();
        private List<String> libraryPackages = DEFAULT_LIBRARY_PACKAGES;
        private boolean toolResults = true;
        private boolean userMessages = true;
        private boolean assistantMessages = true;
        private int maxItemsPerSlot = 3;
        private int maxPoolItems = 5;
        private int maxScanChars = DEFAULT_MAX_SCAN_CHARS;
        private int maxItemChars = 300;

        private Builder() {
        }

        /** Tools of the application whose results are not mined; default none. */
        public Builder ignoredTools(Collection<String> toolNames) {
            this.ignoredTools = Set.copyOf(Ensure.notNull(toolNames, "toolNames"));
            return this;
        }

        /**
         * Prefixes of JVM class names that are library code, skipped when choosing a stack trace's project frame;
         * default {@link #DEFAULT_LIBRARY_PACKAGES}.
         */
        public Builder libraryPackages(Collection<String> prefixes) {
            this.libraryPackages = List.copyOf(Ensure.notNull(prefixes, "prefixes"));
            return this;
        }

        /** Whether tool results are mined; default true. */
        public Builder fromToolResults(boolean enabled) {
            this.toolResults = enabled;
            return this;
        }

        /** Whether user messages are mined; default true. */
        public Builder fromUserMessages(boolean enabled) {
            this.userMessages = enabled;
            return this;
        }

        /** Whether the model's messages are mined; default true. */
        public Builder fromAssistantMessages(boolean enabled) {
            this.assistantMessages = enabled;
            return this;
        }

        /** The most items of one slot a message yields, the first ones; default 3. */
        public Builder maxItemsPerSlot(int max) {
            this.maxItemsPerSlot = max;
            return this;
        }

        /** The most pool items (files) a message yields; default 5. */
        public Builder maxPoolItems(int max) {
            this.maxPoolItems = max;
            return this;
        }

        /** Longer texts are read as their first and last half of this many characters; default 1,000,000. */
        public Builder maxScanChars(int maxChars) {
            this.maxScanChars = maxChars;
            return this;
        }

        /** Longer items are cut (with {@code ...}); default 300. */
        public Builder maxItemChars(int maxChars) {
            this.maxItemChars = maxChars;
            return this;
        }

        /** @throws IllegalArgumentException when a per-slot, scan or item limit is below 1 or the pool limit negative */
        public HeuristicSessionExtractor build() {
            return new HeuristicSessionExtractor(this);
        }
    }
}
