package dev.workingmemory.spring;

import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.dream.DreamConfig;
import org.springframework.validation.Errors;

import java.util.Locale;
import java.util.function.BiConsumer;

/** How the properties configure a provider's builder; shared by the provider bean and the tools registrar. */
final class ProviderSettings {

    private ProviderSettings() {
    }

    /** A builder with everything the properties say except the store. */
    static WorkingMemoryProvider.Builder builder(WorkingMemoryProperties properties) {
        return builder(properties, (field, refused) -> {
            throw new IllegalArgumentException(property(field) + ": " + refused.getMessage(), refused);
        });
    }

    /**
     * Rejects each field whose value the builders refuse, with the builder's reason, so that startup fails naming the
     * property ({@code working-memory.max-messages}) rather than the builder's parameter ({@code maxMessages}). A
     * value is checked even where other properties make it unused (a search budget with the crystals off).
     */
    static void validate(WorkingMemoryProperties properties, Errors errors) {
        builder(properties, (field, refused) -> errors.rejectValue(field, "invalid", refused.getMessage()));
    }

    private static WorkingMemoryProvider.Builder builder(WorkingMemoryProperties properties,
                                                         BiConsumer<String, IllegalArgumentException> refused) {
        WorkingMemoryProvider.Builder builder = WorkingMemoryProvider.builder();
        apply("maxMessages", refused, () -> builder.maxMessages(properties.getMaxMessages()));
        apply("contextWindow", refused, () -> builder.contextWindow(properties.getContextWindow()));
        apply("maxCachedMemories", refused, () -> builder.maxCachedMemories(properties.getMaxCachedMemories()));
        apply("saveDelay", refused, () -> builder.saveDelay(properties.getSaveDelay()));
        apply("pauseAfter", refused, () -> builder.pauseAfter(properties.getPauseAfter()));
        WorkingMemoryProperties.Dreams dreams = properties.getDreams();
        DreamConfig.Builder dreamConfig = DreamConfig.builder().scheduled(dreams.isScheduled());
        apply("dreams.interval", refused, () -> dreamConfig.interval(dreams.getInterval()));
        apply("dreams.minNotes", refused, () -> dreamConfig.minNotes(dreams.getMinNotes()));
        builder.dreams(dreamConfig.build());
        WorkingMemoryProperties.Crystals crystals = properties.getCrystals();
        apply("crystals.searchTokenBudget", refused, () -> builder.searchTokenBudget(crystals.getSearchTokenBudget()));
        if (!crystals.isEnabled()) {
            return builder.withoutCrystals(); // past turns mean nothing without crystals
        }
        return builder.pastTurns(crystals.isPastTurns());
    }

    private static void apply(String field, BiConsumer<String, IllegalArgumentException> refused, Runnable setting) {
        try {
            setting.run();
        } catch (IllegalArgumentException e) {
            refused.accept(field, e);
        }
    }

    /** {@code dreams.minNotes} → {@code working-memory.dreams.min-notes}. */
    private static String property(String field) {
        return WorkingMemoryProperties.PREFIX + "." + field.replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
    }
}
