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

    public static final String PREFIX = "working-memory";

    /** Whether to auto-configure a working memory at all. */
    private boolean enabled = true;

    /** How many messages the window keeps besides the system message; whole turns are evicted. */
    private int maxMessages = 20;

    /** The model's context window in tokens: sizes the <working_memory> block. */
    private int contextWindow = 128_000;

    /** How many memories stay loaded; an evicted memory is saved first and loaded again on its next use. */
    private int maxCachedMemories = 10_000;

    /**
     * How long after its first unsaved change derived state (entities) is saved; 0 saves within each call. Writes a
     * tool reports as saved do not wait for it.
     */
    private Duration saveDelay = Duration.ofSeconds(1);

    /**
     * How long a conversation goes without a message before it counts as paused: what its window still holds then
     * becomes past turns memory_search finds (as when the memory is unloaded or the application stops).
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

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public int getMaxMessages() {
        return maxMessages;
    }

    public void setMaxMessages(int maxMessages) {
        this.maxMessages = maxMessages;
    }

    public int getContextWindow() {
        return contextWindow;
    }

    public void setContextWindow(int contextWindow) {
        this.contextWindow = contextWindow;
    }

    public int getMaxCachedMemories() {
        return maxCachedMemories;
    }

    public void setMaxCachedMemories(int maxCachedMemories) {
        this.maxCachedMemories = maxCachedMemories;
    }

    public Duration getSaveDelay() {
        return saveDelay;
    }

    public void setSaveDelay(Duration saveDelay) {
        this.saveDelay = saveDelay;
    }

    public Duration getPauseAfter() {
        return pauseAfter;
    }

    public void setPauseAfter(Duration pauseAfter) {
        this.pauseAfter = pauseAfter;
    }

    public Store getStore() {
        return store;
    }

    public Tools getTools() {
        return tools;
    }

    public Crystals getCrystals() {
        return crystals;
    }

    public Dreams getDreams() {
        return dreams;
    }

    /** Where layer state is kept. */
    public static class Store {

        /** memory (lost on restart), file (a directory, see path) or jdbc (the application's DataSource). */
        private StoreType type = StoreType.MEMORY;

        /** The directory of the file store. */
        private Path path = Path.of("working-memory");

        public StoreType getType() {
            return type;
        }

        public void setType(StoreType type) {
            this.type = type;
        }

        public Path getPath() {
            return path;
        }

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

        /** Whether to register the tool beans (WorkingMemoryTools.all) that @AiService picks up. */
        private boolean enabled = true;

        /**
         * Whether to register one ToolProvider bean, workingMemoryToolProvider (WorkingMemoryTools.toolProvider),
         * in place of the tool beans: a layer's tools reach the model only where it acts (no session tools for an
         * assistant that does not code). @AiService wires it when it is the application's only ToolProvider.
         */
        private boolean provider = false;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public boolean isProvider() {
            return provider;
        }

        public void setProvider(boolean provider) {
            this.provider = provider;
        }
    }

    /** The long-term memory: notes and past turns kept as crystals, searched by memory_search. */
    public static class Crystals {

        /** Whether to keep a long-term memory at all; false turns memory_search and past turns off. */
        private boolean enabled = true;

        /** Whether the messages that leave the window are kept as past turns that memory_search finds. */
        private boolean pastTurns = true;

        /** How many tokens the texts of one search's hits may take together. */
        private int searchTokenBudget = 600;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public boolean isPastTurns() {
            return pastTurns;
        }

        public void setPastTurns(boolean pastTurns) {
            this.pastTurns = pastTurns;
        }

        public int getSearchTokenBudget() {
            return searchTokenBudget;
        }

        public void setSearchTokenBudget(int searchTokenBudget) {
            this.searchTokenBudget = searchTokenBudget;
        }
    }

    /** Dreams: a compact state document per user, rewritten from the notes taken since the last dream. */
    public static class Dreams {

        /** How often users with enough pending notes dream, on the provider's own thread. */
        private Duration interval = Duration.ofMinutes(120);

        /** The pending notes a user needs before a scheduled dream. */
        private int minNotes = 5;

        /** Whether dreams run on a schedule at all; false leaves only provider.dream(id). */
        private boolean scheduled = true;

        /** The name of the ChatModel bean that dreams; none: the offline synthesizer. */
        private String model;

        public Duration getInterval() {
            return interval;
        }

        public void setInterval(Duration interval) {
            this.interval = interval;
        }

        public int getMinNotes() {
            return minNotes;
        }

        public void setMinNotes(int minNotes) {
            this.minNotes = minNotes;
        }

        public boolean isScheduled() {
            return scheduled;
        }

        public void setScheduled(boolean scheduled) {
            this.scheduled = scheduled;
        }

        public String getModel() {
            return model;
        }

        public void setModel(String model) {
            this.model = model;
        }
    }
}
