package dev.workingmemory.spring;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The {@code working-memory.*} properties the auto-configured {@code WorkingMemoryProvider} is built from. Validates
 * itself as Spring binds it: a value the provider's builders refuse (a negative size, a zero interval) fails startup
 * naming the property and the reason. Not thread-safe (Spring binds it once at startup).
 */
@ConfigurationProperties(prefix = WorkingMemoryProperties.PREFIX)
public class WorkingMemoryProperties implements Validator {

    /** The prefix of these properties. */
    public static final String PREFIX = "working-memory";

    /** Whether to auto-configure a working memory at all; default true. */
    private boolean enabled = true;

    /** How many messages the window keeps besides the system message; whole turns are evicted. At least 1, default 20. */
    private int maxMessages = 20;

    /**
     * The model's context window in tokens: sizes the {@code <working_memory>} block and is what context pressure is measured
     * against. At least 1, default 128000.
     */
    private int contextWindow = 128_000;

    /**
     * How many memories stay loaded; an evicted memory is saved first and loaded again on its next use. At least 1,
     * default 10000.
     */
    private int maxCachedMemories = 10_000;

    /**
     * How long after its first unsaved change derived state (entities) is saved; 0 saves within each call. Writes a
     * tool reports as saved do not wait for it. Not negative; default 1s.
     */
    private Duration saveDelay = Duration.ofSeconds(1);

    /**
     * How long a conversation goes without a message before it counts as paused: what its window still holds then
     * becomes past turns memory_search finds (as when the memory is unloaded or the application stops). Positive;
     * default 10m.
     */
    private Duration pauseAfter = Duration.ofMinutes(10);

    private final Store store = new Store();

    private final Tools tools = new Tools();

    private final Crystals crystals = new Crystals();

    private final Dreams dreams = new Dreams();

    @Override
    public boolean supports(Class<?> type) {
        return WorkingMemoryProperties.class.isAssignableFrom(type);
    }

    /** Rejects each property whose value the provider's builders refuse, with their reason. */
    @Override
    public void validate(Object target, Errors errors) {
        ProviderSettings.validate((WorkingMemoryProperties) target, errors);
    }

    /** {@code working-memory.enabled}: whether to auto-configure a working memory; default true. */
    public boolean isEnabled() {
        return enabled;
    }

    /** Sets {@code working-memory.enabled}. */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** {@code working-memory.max-messages}: the messages the window keeps besides the system message; default 20. */
    public int getMaxMessages() {
        return maxMessages;
    }

    /** Sets {@code working-memory.max-messages}. */
    public void setMaxMessages(int maxMessages) {
        this.maxMessages = maxMessages;
    }

    /** {@code working-memory.context-window}: the model's context window in tokens; default 128000. */
    public int getContextWindow() {
        return contextWindow;
    }

    /** Sets {@code working-memory.context-window}. */
    public void setContextWindow(int contextWindow) {
        this.contextWindow = contextWindow;
    }

    /** {@code working-memory.max-cached-memories}: how many memories stay loaded; default 10000. */
    public int getMaxCachedMemories() {
        return maxCachedMemories;
    }

    /** Sets {@code working-memory.max-cached-memories}. */
    public void setMaxCachedMemories(int maxCachedMemories) {
        this.maxCachedMemories = maxCachedMemories;
    }

    /** {@code working-memory.save-delay}: how long after its first unsaved change derived state is saved; default 1 second. */
    public Duration getSaveDelay() {
        return saveDelay;
    }

    /** Sets {@code working-memory.save-delay}. */
    public void setSaveDelay(Duration saveDelay) {
        this.saveDelay = saveDelay;
    }

    /** {@code working-memory.pause-after}: how long without a message a conversation counts as paused; default 10 minutes. */
    public Duration getPauseAfter() {
        return pauseAfter;
    }

    /** Sets {@code working-memory.pause-after}. */
    public void setPauseAfter(Duration pauseAfter) {
        this.pauseAfter = pauseAfter;
    }

    /** {@code working-memory.store.*}: where layer state is kept. */
    public Store getStore() {
        return store;
    }

    /** {@code working-memory.tools.*}: the tool beans. */
    public Tools getTools() {
        return tools;
    }

    /** {@code working-memory.crystals.*}: the long-term memory. */
    public Crystals getCrystals() {
        return crystals;
    }

    /** {@code working-memory.dreams.*}: the dreams. */
    public Dreams getDreams() {
        return dreams;
    }

    /** Where layer state is kept. */
    public static class Store {

        /** memory (lost on restart), file (a directory, see path) or jdbc (the application's DataSource); default memory. */
        private StoreType type = StoreType.MEMORY;

        /** The directory of the file store; default working-memory (relative to the working directory), not blank. */
        private Path path = Path.of("working-memory");

        /** {@code working-memory.store.type}: memory, file or jdbc; default memory. */
        public StoreType getType() {
            return type;
        }

        /** Sets {@code working-memory.store.type}. */
        public void setType(StoreType type) {
            this.type = type;
        }

        /** {@code working-memory.store.path}: the directory of the file store; default working-memory. */
        public Path getPath() {
            return path;
        }

        /** Sets {@code working-memory.store.path}. */
        public void setPath(Path path) {
            this.path = path;
        }
    }

    /** The store kinds {@code working-memory.store.type} names. */
    public enum StoreType {
        /** {@code InMemoryWorkingMemoryStore}: nothing survives a restart. */
        MEMORY,
        /** {@code FileWorkingMemoryStore} in {@code working-memory.store.path}. */
        FILE,
        /** {@code JdbcWorkingMemoryStore} on the application's {@code DataSource} (needs langchain4j-working-memory-jdbc). */
        JDBC
    }

    /** The tool beans that let the model read and write its memory. */
    public static class Tools {

        /** Whether to register the tool beans (WorkingMemoryTools.all) that @AiService picks up; default true. */
        private boolean enabled = true;

        /**
         * Whether to register one ToolProvider bean, workingMemoryToolProvider (WorkingMemoryTools.toolProvider),
         * in place of the tool beans: a layer's tools reach the model only where it acts (no session tools for an
         * assistant that does not code). @AiService wires it when it is the application's only ToolProvider. Default
         * false.
         */
        private boolean provider = false;

        /** {@code working-memory.tools.enabled}: whether to register the tool beans; default true. */
        public boolean isEnabled() {
            return enabled;
        }

        /** Sets {@code working-memory.tools.enabled}. */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** {@code working-memory.tools.provider}: whether to register one ToolProvider bean in place of the tool beans; default false. */
        public boolean isProvider() {
            return provider;
        }

        /** Sets {@code working-memory.tools.provider}. */
        public void setProvider(boolean provider) {
            this.provider = provider;
        }
    }

    /** The long-term memory: notes and past turns kept as crystals, searched by memory_search. */
    public static class Crystals {

        /** Whether to keep a long-term memory at all; false turns memory_search and past turns off. Default true. */
        private boolean enabled = true;

        /** Whether the messages that leave the window are kept as past turns that memory_search finds; default true. */
        private boolean pastTurns = true;

        /** How many tokens the texts of one search's hits may take together; at least 1, default 600. */
        private int searchTokenBudget = 600;

        /** {@code working-memory.crystals.enabled}: whether to keep a long-term memory at all; default true. */
        public boolean isEnabled() {
            return enabled;
        }

        /** Sets {@code working-memory.crystals.enabled}. */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** {@code working-memory.crystals.past-turns}: whether messages that leave the window are kept as past turns; default true. */
        public boolean isPastTurns() {
            return pastTurns;
        }

        /** Sets {@code working-memory.crystals.past-turns}. */
        public void setPastTurns(boolean pastTurns) {
            this.pastTurns = pastTurns;
        }

        /** {@code working-memory.crystals.search-token-budget}: the tokens one search's hits may take together; default 600. */
        public int getSearchTokenBudget() {
            return searchTokenBudget;
        }

        /** Sets {@code working-memory.crystals.search-token-budget}. */
        public void setSearchTokenBudget(int searchTokenBudget) {
            this.searchTokenBudget = searchTokenBudget;
        }
    }

    /** Dreams: a compact state document per user, rewritten from the notes taken since the last dream. */
    public static class Dreams {

        /** How often users with enough pending notes dream, on the provider's own thread; positive, default 120m. */
        private Duration interval = Duration.ofMinutes(120);

        /** The pending notes a user needs before a scheduled dream; at least 1, default 5. */
        private int minNotes = 5;

        /** Whether dreams run on a schedule at all; false leaves only provider.dream(id). Default true. */
        private boolean scheduled = true;

        /** The name of the ChatModel bean that dreams; none: the offline synthesizer. */
        private String model;

        /** {@code working-memory.dreams.interval}: how often users with enough pending notes dream; default 120 minutes. */
        public Duration getInterval() {
            return interval;
        }

        /** Sets {@code working-memory.dreams.interval}. */
        public void setInterval(Duration interval) {
            this.interval = interval;
        }

        /** {@code working-memory.dreams.min-notes}: the pending notes a user needs before a scheduled dream; default 5. */
        public int getMinNotes() {
            return minNotes;
        }

        /** Sets {@code working-memory.dreams.min-notes}. */
        public void setMinNotes(int minNotes) {
            this.minNotes = minNotes;
        }

        /** {@code working-memory.dreams.scheduled}: whether dreams run on a schedule at all; default true. */
        public boolean isScheduled() {
            return scheduled;
        }

        /** Sets {@code working-memory.dreams.scheduled}. */
        public void setScheduled(boolean scheduled) {
            this.scheduled = scheduled;
        }

        /** {@code working-memory.dreams.model}: the name of the ChatModel bean that dreams; none for the offline synthesizer. */
        public String getModel() {
            return model;
        }

        /** Sets {@code working-memory.dreams.model}. */
        public void setModel(String model) {
            this.model = model;
        }
    }
}
