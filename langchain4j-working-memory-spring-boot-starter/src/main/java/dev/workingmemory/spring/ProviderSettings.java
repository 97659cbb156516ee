package dev.workingmemory.spring;

import dev.workingmemory.WorkingMemoryProvider;

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
                .saveDelay(properties.getSaveDelay());
        WorkingMemoryProperties.Crystals crystals = properties.getCrystals();
        if (!crystals.isEnabled()) {
            return builder.withoutCrystals(); // past turns and the budget mean nothing without crystals
        }
        return builder.pastTurns(crystals.isPastTurns()).searchTokenBudget(crystals.getSearchTokenBudget());
    }
}
