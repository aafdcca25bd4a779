/**
 * @module worker/services/suggest-tests/names-java
 *
 * Data for fill-verify-java.ts: the java.lang types (implicitly imported, JLS 7.3), the names a
 * wildcard import of JUnit 5 / Mockito / java.util brings in (Assertions, Mockito,
 * ArgumentMatchers, the common java.util types), and the methods of JDK values (Object, String,
 * collections, BigDecimal, Optional, streams) and of Mockito stubbing that a call on a local
 * value may name without the index defining them.
 */

const words = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

/** java.lang types and annotations, and `var`. */
export const JAVA_LANG = words(`
  Object String Integer Long Double Float Boolean Character Byte Short Number Math StrictMath System Thread Runnable Iterable
  Comparable CharSequence StringBuilder StringBuffer Class Enum Record Void Throwable Exception RuntimeException Error AssertionError
  IllegalArgumentException IllegalStateException NullPointerException UnsupportedOperationException IndexOutOfBoundsException
  ArrayIndexOutOfBoundsException ArithmeticException ClassCastException NumberFormatException InterruptedException
  CloneNotSupportedException Override Deprecated SuppressWarnings FunctionalInterface SafeVarargs AutoCloseable var
`);

/** Names a wildcard import of an outside package or class may bring in (JUnit 5, Mockito, java.util). */
export const JAVA_WILDCARD_NAMES = words(`
  assertEquals assertNotEquals assertTrue assertFalse assertNull assertNotNull assertSame assertNotSame assertThrows
  assertDoesNotThrow assertAll assertArrayEquals assertIterableEquals assertLinesMatch assertTimeout assertInstanceOf fail
  Test BeforeEach AfterEach BeforeAll AfterAll DisplayName Nested Disabled Tag ParameterizedTest ValueSource CsvSource
  mock spy when verify times never atLeast atLeastOnce atMost only inOrder doReturn doThrow doNothing doAnswer reset
  verifyNoInteractions verifyNoMoreInteractions any anyInt anyLong anyString anyList anyMap eq argThat isNull notNull
  Mock InjectMocks Spy Captor ArgumentCaptor MockitoExtension ExtendWith
  List Map Set HashMap HashSet ArrayList LinkedList Optional Arrays Collections Objects Locale UUID Iterator
`);

/** Methods of JDK values and of Mockito's stubbing/verification chains. */
export const JAVA_BUILTIN_METHODS = words(`
  equals hashCode toString getClass compareTo length charAt isEmpty isBlank substring indexOf contains startsWith endsWith trim
  strip toUpperCase toLowerCase split replace format formatted chars getBytes matches repeat concat valueOf
  size get put add addAll remove clear containsKey containsValue keySet values entrySet iterator stream forEach of copyOf
  map filter collect toList reduce findFirst anyMatch allMatch count sorted orElse orElseThrow isPresent ifPresent
  getMessage getCause getKey getValue
  add subtract multiply divide negate abs scale setScale signum intValue longValue doubleValue stripTrailingZeros
  thenReturn thenThrow thenAnswer thenCallRealMethod capture getValue getAllValues
`);
