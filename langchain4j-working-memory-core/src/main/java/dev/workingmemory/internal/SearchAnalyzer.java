package dev.workingmemory.internal;

import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.StopwordAnalyzerBase;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;

/**
 * The analyzer of the keyword search: Lucene's {@link EnglishAnalyzer} (standard tokens, possessives, lower case, its
 * stop words, Porter stems), and for Chinese, Japanese and Korean text also the pairs of adjacent characters
 * ({@link CJKBigramFilter}, unigrams kept). The standard tokenizer cuts Han and Hiragana into single characters, so a
 * search for 病院 (hospital) scored 病 and 院 wherever each stood apart (病気, 大学院), and ranked a passage with 療法食
 * above the one that said 点滴と療法食; the pairs score the word where it was said. Latin, Cyrillic and every other text
 * gives the very tokens of {@code EnglishAnalyzer}, so an index built with it stays valid (its CJK passages match by
 * their single characters until re-indexed).
 *
 * <p>Thread-safe (Lucene's analyzers reuse their components per thread).
 */
public final class SearchAnalyzer extends StopwordAnalyzerBase {

    public SearchAnalyzer() {
        super(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
    }

    @Override
    protected TokenStreamComponents createComponents(String fieldName) {
        Tokenizer source = new StandardTokenizer();
        TokenStream result = new CJKBigramFilter(source, CJKBigramFilter.HAN | CJKBigramFilter.HIRAGANA
                | CJKBigramFilter.KATAKANA | CJKBigramFilter.HANGUL, true);
        result = new EnglishPossessiveFilter(result);
        result = new LowerCaseFilter(result);
        result = new StopFilter(result, stopwords);
        result = new PorterStemFilter(result);
        return new TokenStreamComponents(source, result);
    }

    @Override
    protected TokenStream normalize(String fieldName, TokenStream in) {
        return new LowerCaseFilter(in);
    }
}
