package dev.workingmemory.entity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.workingmemory.internal.EnglishNouns;

import java.util.Locale;
import java.util.Set;

/**
 * What the walk needs to know about a key that holds a container ({@code "pages": [...]}): whether it is
 * bookkeeping or a wrapper, and the types it can give what it holds.
 *
 * <p>The facts of up to {@link #MAX_REMEMBERED} keys are remembered in a Caffeine cache, so that a key that keeps coming
 * back (every result of a tool has the same keys) is worked out once. Keys longer than
 * {@link #MAX_REMEMBERED_LENGTH} are worked out each time, so that the cache never holds large strings.
 *
 * <p>Thread-safe: the facts are immutable and the cache is Caffeine's.
 */
final class ContainerKeys {

    /** Keys that only wrap what they hold: what they hold is typed by the key above them (or the tool). */
    static final Set<String> WRAPPER_KEYS = Set.of(
            "data", "result", "results", "items", "item", "matches", "match", "hits", "docs", "records", "record",
            "rows", "row", "content", "contents", "payload", "response", "body", "value", "values", "list",
            "nodes", "node", "edges", "objects", "object", "output", "resource", "resources", "elements");

    /**
     * Keys whose values are bookkeeping or side-loaded related records (JSON:API {@code included}, the records a
     * resource would otherwise nest), never the result's resources: they are not walked into.
     */
    static final Set<String> IGNORED_KEYS = Set.of(
            "meta", "metadata", "_meta", "pagination", "paging", "pageinfo", "page_info", "links", "_links",
            "error", "errors", "debug", "headers", "request", "usage", "included");

    /** How many keys are remembered at most. */
    static final int MAX_REMEMBERED = 512;
    /** Longer keys are worked out each time, so that the slots never hold large strings. */
    static final int MAX_REMEMBERED_LENGTH = 64;

    /**
     * The facts about one key.
     *
     * @param name      the key
     * @param ignored   a bookkeeping key: what it holds is not walked
     * @param wrapper   a wrapper key: what it holds is typed by the key above it
     * @param knownType for other keys, the known type the key names ({@code featured_image} → image), or {@code null}
     * @param ownType   for other keys, the type made from the key itself ({@code lineItems} → line_item), or
     *                  {@code null}
     * @param listHeading for other keys that name no known type, the key in lower snake case when it is not the plural
     *                  the block would make of {@code ownType} ({@code verbindungen}, {@code szkolki}, {@code staff}), or
     *                  {@code null}: the heading of the records of that type listed under it. The key of a list is
     *                  the plural its API gives, in the API's language, where English rules would add an {@code s}
     *                  to a plural they cannot recognize ({@code verbindungens})
     */
    record Key(String name, boolean ignored, boolean wrapper, String knownType, String ownType, String listHeading) {
    }

    private final EntityTypeNames typeNames;
    private final Cache<String, Key> remembered = Caffeine.newBuilder()
            .maximumSize(MAX_REMEMBERED)
            .executor(Runnable::run) // evicting a few small values needs no other thread
            .build();

    ContainerKeys(EntityTypeNames typeNames) {
        this.typeNames = typeNames;
    }

    EntityTypeNames typeNames() {
        return typeNames;
    }

    Key of(String name) {
        return name.length() <= MAX_REMEMBERED_LENGTH ? remembered.get(name, this::workOut) : workOut(name);
    }

    /** How many keys are remembered now (for tests). */
    long remembered() {
        remembered.cleanUp();
        return remembered.estimatedSize();
    }

    private Key workOut(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (IGNORED_KEYS.contains(lower)) {
            return new Key(name, true, false, null, null, null);
        }
        if (WRAPPER_KEYS.contains(lower)) {
            return new Key(name, false, true, null, null, null);
        }
        String knownType = typeNames.knownTypeOfKey(name);
        String form = EntityTypeNames.snakeCase(name);
        String ownType = form == null ? null : EnglishNouns.singular(form);
        // only where it differs: an English plural key (widgets, line_items) heads its list as it always did, and a
        // known type ({"business":[…]} of Yelp) keeps its English plural
        String listHeading = knownType != null || ownType == null || EnglishNouns.plural(ownType).equals(form)
                ? null : form;
        return new Key(name, false, false, knownType, ownType, listHeading);
    }
}
