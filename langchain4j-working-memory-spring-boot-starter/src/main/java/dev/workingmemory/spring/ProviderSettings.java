package dev.workingmemory.spring;

import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.dream.DreamConfig;

/** How the properties configure a provider's builder; shared by the provider bean and the tools registrar. */
final class ProviderSettings {

    private ProviderSettings() {
    }

    /** A builder with everything the properties say except the store. */
    static WorkingMemoryProvider.Builder builder(WorkingMemoryProperties properties) {
        WorkingMemoryProvider.Builder builder = WorkingMemoryProvider.builder()
                .maxMessages(properties.getMaxMessages())
                .contextWindow(properties.getContextWindow())
                .maxCachedMemories(properties.getMaxCachedMemories())
                .saveDelay(properties.getSaveDelay())
                .pauseAfter(properties.getPauseAfter());
        WorkingMemoryProperties.Dreams dreams = properties.getDreams();
        builder.dreams(DreamConfig.builder().interval(dreams.getInterval()).minNotes(dreams.getMinNotes())
                .scheduled(dreams.isScheduled()).build());
        WorkingMemoryProperties.Crystals crystals = properties.getCrystals();
        if (!crystals.isEnabled()) {
            return builder.withoutCrystals(); // past turns and the budget mean nothing without crystals
        }
        return builder.pastTurns(crystals.isPastTurns()).searchTokenBudget(crystals.getSearchTokenBudget());
    }
}
