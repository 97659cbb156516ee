package dev.workingmemory.entity;

import dev.workingmemory.internal.Ensure;
import dev.workingmemory.layer.LayerBudget;

/**
 * How entities are tracked: how many, found by which extractor, and what the model is told about them.
 *
 * <p>Immutable and thread-safe.
 */
public final class EntityMemoryConfig {

    /** Seed 001's reference-resolution guidance, rendered once under the entities when there are any. */
    public static final String DEFAULT_REFERENCE_GUIDANCE =
            "When the user says \"it\", \"this page\", \"that image\" or \"the section\", use the most recent entity"
                    + " of that type (listed first). If several fit and the reference is ambiguous, ask which one.";

    private final int maxEntities;
    private final EntityExtractor extractor;
    private final String referenceGuidance;
    private final LayerBudget budget;

    private EntityMemoryConfig(Builder builder) {
        this.maxEntities = Ensure.positive(builder.maxEntities, "maxEntities");
        this.extractor = builder.extractor != null ? builder.extractor : JsonEntityExtractor.create();
        this.referenceGuidance = builder.referenceGuidance == null || builder.referenceGuidance.isBlank()
                ? "" : builder.referenceGuidance;
        this.budget = builder.budget != null ? builder.budget : LayerBudget.of(300, 2000);
    }

    public static EntityMemoryConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public int maxEntities() {
        return maxEntities;
    }

    public EntityExtractor extractor() {
        return extractor;
    }

    /** The guidance text, {@code ""} when removed. */
    public String referenceGuidance() {
        return referenceGuidance;
    }

    public LayerBudget budget() {
        return budget;
    }

    /** Builds an {@link EntityMemoryConfig}. Not thread-safe. */
    public static final class Builder {

        private int maxEntities = 10;
        private EntityExtractor extractor;
        private String referenceGuidance = DEFAULT_REFERENCE_GUIDANCE;
        private LayerBudget budget;

        private Builder() {
        }

        /** The most entities kept, most recent first; default 10 (seed 001). */
        public Builder maxEntities(int maxEntities) {
            this.maxEntities = maxEntities;
            return this;
        }

        /** Default: {@link JsonEntityExtractor#create()}. */
        public Builder extractor(EntityExtractor extractor) {
            this.extractor = Ensure.notNull(extractor, "extractor");
            return this;
        }

        /** The guidance rendered under the entities; {@code null} or blank removes it. */
        public Builder referenceGuidance(String referenceGuidance) {
            this.referenceGuidance = referenceGuidance;
            return this;
        }

        public Builder budget(LayerBudget budget) {
            this.budget = Ensure.notNull(budget, "budget");
            return this;
        }

        public EntityMemoryConfig build() {
            return new EntityMemoryConfig(this);
        }
    }
}
