package dev.workingmemory.entity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a prefixed name key ({@code restaurant_name}, {@code receiverName}, {@code display_name}, {@code movie_title})
 * says about the record holding it, and whether a value looks like a name.
 *
 * <p>The prefix decides: a key whose prefix names a party of the record ({@code receiver}, {@code user},
 * {@code contact}, ...) names that party, not the record; a qualifier ({@code display}, {@code full}, ...) leaves a
 * plain name; {@code first}/{@code last} give part of one; any other prefix names a thing of that type
 * ({@code restaurant_name} → a restaurant). Facts about up to {@link #MAX_REMEMBERED} keys of at most
 * {@link #MAX_REMEMBERED_LENGTH} characters are remembered in a Caffeine cache.
 *
 * <p>Thread-safe: the facts are immutable and the cache is Caffeine's.
 */
final class NameKeys {

    /** What a prefixed name key names. */
    enum Kind {
        /** A thing of the prefix's type: {@code restaurant_name}, {@code widgetName}. */
        THING,
        /** The record itself, qualified: {@code display_name}, {@code fullName}. */
        PLAIN,
        /** Part of a person's name: {@code first_name}. */
        PARTIAL,
        /** Another party of the record: {@code receiver_name}, {@code user_name}. */
        PARTY
    }

    /**
     * @param kind       what the key names
     * @param prefixType the type the prefix names ({@code restaurant}, {@code receiver}); for {@link Kind#THING} a
     *                   known type when the prefix's last word is one
     * @param known      whether {@code prefixType} is a known type
     * @param title      whether the key ends in {@code _title}/{@code Title} rather than {@code _name}/{@code Name}
     */
    record NameKey(Kind kind, String prefixType, boolean known, boolean title) {
    }

    /** Prefix words that name another party of a record: a payment's receiver, a ticket's requester. */
    static final Set<String> PARTIES = Set.of(
            "receiver", "recipient", "sender", "payer", "payee", "beneficiary", "user", "username", "customer",
            "client", "contact", "owner", "author", "creator", "host", "guest", "passenger", "holder", "cardholder",
            "merchant", "vendor", "supplier", "organizer", "organiser", "requester", "assignee", "reporter",
            "reviewer", "member", "employee", "patient", "person", "caller", "buyer", "seller", "agent", "driver",
            "operator", "manager", "friend", "attendee", "traveler", "traveller", "rider", "account", "billing",
            "shipping", "company", "organization", "organisation", "bank", "airline", "carrier", "publisher",
            "brand", "manufacturer");

    /** Single prefixes that only qualify the record's own name. */
    static final Set<String> QUALIFIERS = Set.of(
            "display", "full", "short", "long", "common", "legal", "official", "screen", "friendly", "formatted",
            "local", "english", "native", "original", "alt", "alternate", "alternative", "public", "canonical",
            "nick", "preferred");

    /** Single prefixes that give part of a person's name. */
    static final Set<String> PARTIALS = Set.of("first", "last", "middle", "given", "family", "sur", "maiden");

    /** Values under name keys that stand for no name. */
    private static final Set<String> PLACEHOLDERS = Set.of(
            "n/a", "na", "none", "null", "nil", "unknown", "undefined", "tbd", "-", "--", "?");

    static final int MAX_REMEMBERED = 512;
    static final int MAX_REMEMBERED_LENGTH = 64;
    /** Longer values are not names of things (they are sentences, descriptions, ...). */
    static final int MAX_NAME_CHARS = 120;
    static final int MAX_NAME_WORDS = 15;

    /** Cached for keys that are not prefixed name keys. */
    private static final NameKey NONE = new NameKey(Kind.PARTY, "", false, false);

    private final EntityTypeNames typeNames;
    private final Cache<String, NameKey> remembered = Caffeine.newBuilder()
            .maximumSize(MAX_REMEMBERED)
            .executor(Runnable::run)
            .build();

    NameKeys(EntityTypeNames typeNames) {
        this.typeNames = typeNames;
    }

    /** 5 for {@code page_name}, 4 for {@code pageName}, 6 for {@code movie_title}, 5 for {@code movieTitle}, else 0. */
    static int suffixLength(String key) {
        int n = key.length();
        if (n > 5 && key.endsWith("_name")) {
            return 5;
        }
        if (n > 6 && key.endsWith("_title")) {
            return 6;
        }
        if (n > 4 && key.endsWith("Name") && Character.isLowerCase(key.charAt(n - 5))) {
            return 4;
        }
        if (n > 5 && key.endsWith("Title") && Character.isLowerCase(key.charAt(n - 6))) {
            return 5;
        }
        return 0;
    }

    /** The facts about a prefixed name key, or {@code null} when {@code key} is not one. */
    NameKey of(String key) {
        if (suffixLength(key) == 0) {
            return null;
        }
        NameKey facts = key.length() <= MAX_REMEMBERED_LENGTH ? remembered.get(key, this::workOut) : workOut(key);
        return facts == NONE ? null : facts;
    }

    private NameKey workOut(String key) {
        int suffix = suffixLength(key);
        boolean title = key.endsWith("_title") || key.endsWith("Title");
        String prefix = key.substring(0, key.length() - suffix);
        List<String> words = EntityTypeNames.words(prefix);
        String prefixType = EntityTypeNames.typeOfKey(prefix);
        if (words.isEmpty() || prefixType == null) {
            return NONE;
        }
        for (String word : words) {
            if (PARTIES.contains(word)) {
                return new NameKey(Kind.PARTY, prefixType, false, title);
            }
        }
        if (words.size() == 1 && QUALIFIERS.contains(words.get(0))) {
            return new NameKey(Kind.PLAIN, prefixType, false, title);
        }
        if (words.size() == 1 && PARTIALS.contains(words.get(0))) {
            return new NameKey(Kind.PARTIAL, prefixType, false, title);
        }
        String known = typeNames.knownTypeOfKey(prefix);
        return new NameKey(Kind.THING, known != null ? known : prefixType, known != null, title);
    }

    /**
     * Whether a value can name a thing: a single line of at most {@value #MAX_NAME_CHARS} characters and
     * {@value #MAX_NAME_WORDS} words with a letter in it, not a URL, e-mail address or placeholder
     * ({@code n/a}, {@code unknown}), and not starting with a digit unless a word of three letters follows
     * (so {@code 2019-03-01}, {@code 7:30 pm} and {@code 1989} are not names, {@code 49ers Vs Rams} is).
     */
    static boolean looksLikeName(String text) {
        String value = text.strip();
        int length = value.length();
        if (length == 0 || length > MAX_NAME_CHARS) {
            return false;
        }
        int letters = 0;
        int run = 0;
        int longestRun = 0;
        int words = 1;
        boolean at = false;
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (c == '\n' || c == '\r' || c == '\t') {
                return false;
            }
            if (Character.isLetter(c)) {
                letters++;
                longestRun = Math.max(longestRun, ++run);
            } else {
                run = 0;
                if (c == ' ' && value.charAt(i - 1) != ' ') {
                    words++;
                } else if (c == '@') {
                    at = true;
                }
            }
        }
        if (letters == 0 || words > MAX_NAME_WORDS || (at && words == 1)) {
            return false;
        }
        if (Character.isDigit(value.charAt(0)) && longestRun < 3) {
            return false;
        }
        if (value.contains("://") || value.regionMatches(true, 0, "www.", 0, 4)) {
            return false;
        }
        return !PLACEHOLDERS.contains(value.toLowerCase(Locale.ROOT));
    }
}
