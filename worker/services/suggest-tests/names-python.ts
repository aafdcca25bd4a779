/**
 * @module worker/services/suggest-tests/names-python
 *
 * Data for fill-verify-python.ts: the names a filled Python test may use without defining or
 * importing them (builtins of Python 3.12, `docs.python.org/3/library/functions.html` and
 * `exceptions.html`), and the methods of builtin values and of the frameworks (unittest's
 * TestCase assertions, unittest.mock's Mock) that a call on a local value may name.
 */

const words = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

/** Builtin functions, types, constants, exceptions and module dunders. */
export const PY_BUILTINS = words(`
  abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex delattr dict dir divmod
  enumerate eval exec filter float format frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len
  list locals map max memoryview min next object oct open ord pow print property range repr reversed round set setattr slice sorted
  staticmethod str sum super tuple type vars zip __import__ __name__ __file__ __doc__ NotImplemented Ellipsis
  BaseException BaseExceptionGroup Exception ExceptionGroup ArithmeticError AssertionError AttributeError BlockingIOError
  BrokenPipeError BufferError ConnectionError EOFError FileExistsError FileNotFoundError FloatingPointError GeneratorExit ImportError
  IndexError InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError
  NotADirectoryError NotImplementedError OSError OverflowError PermissionError RecursionError ReferenceError RuntimeError
  StopAsyncIteration StopIteration SyntaxError SystemError SystemExit TimeoutError TypeError UnboundLocalError UnicodeDecodeError
  UnicodeEncodeError UnicodeError ValueError ZeroDivisionError Warning DeprecationWarning UserWarning RuntimeWarning
`);

/** Methods of builtin values (str, list, dict, set, bytes, int, exceptions) and of unittest / unittest.mock objects. */
export const PY_BUILTIN_METHODS = words(`
  append extend insert remove pop clear index count sort reverse copy keys values items get setdefault update add discard union
  intersection difference issubset issuperset split rsplit splitlines strip lstrip rstrip join replace startswith endswith find rfind
  lower upper title capitalize format encode decode isdigit isalpha isspace zfill ljust rjust partition casefold removeprefix
  removesuffix hex bit_length to_bytes from_bytes is_integer with_traceback add_note args
  assertEqual assertNotEqual assertTrue assertFalse assertIs assertIsNot assertIsNone assertIsNotNone assertIn assertNotIn
  assertIsInstance assertNotIsInstance assertRaises assertRaisesRegex assertWarns assertWarnsRegex assertLogs assertNoLogs
  assertAlmostEqual assertNotAlmostEqual assertGreater assertGreaterEqual assertLess assertLessEqual assertRegex assertNotRegex
  assertCountEqual assertListEqual assertDictEqual assertSetEqual assertTupleEqual assertSequenceEqual assertMultiLineEqual
  fail skipTest subTest setUp tearDown setUpClass tearDownClass addCleanup enterContext maxDiff exception
  assert_called assert_called_once assert_called_with assert_called_once_with assert_any_call assert_has_calls assert_not_called
  assert_awaited assert_awaited_once assert_awaited_with assert_awaited_once_with reset_mock configure_mock return_value
  side_effect call_args call_args_list call_count called mock_calls method_calls
`);
